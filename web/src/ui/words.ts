/** `in_culture` -> `in culture`: the API's words, readable. */
export const words = (value: string): string => value.replace(/_/g, ' ');
