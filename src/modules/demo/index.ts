/* The demo module's face: the demo lab, and where its photos are stored. */
export { demoPhotos, discardDemoPhotos, type DemoPhotos } from './demo.photos.js';
export { createDemoLab } from './demo.service.js';
