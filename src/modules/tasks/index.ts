/* The tasks module's face: tasks. */
export { taskRecords } from './tasks.repository.js';
export { createTask, placeTaskByHand, type CreateTaskInput } from './tasks.service.js';
