// The module Web Worker of the training lab: its own core instance, so a long training run never
// delays the other panels' requests, and Cancel may terminate it without touching them (the
// skeleton: worker/own-core.ts).
import { serveOwnCore } from '../worker/own-core.ts';
import { TrainingHost } from './host.ts';

serveOwnCore((core) => new TrainingHost(core));
