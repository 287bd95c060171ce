/* The tasks module's face: tasks. */
export { assignedTasksDueIn, taskRecords, type DueTaskRow } from './tasks.repository.js';
export { createTask, placeTaskByHand, type CreateTaskInput } from './tasks.service.js';
