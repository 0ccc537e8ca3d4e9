// The module Web Worker of the device panel: its own core instance (the SIMD128 build where the
// engine validates SIMD128, else the baseline one), so a benchmark never delays the other panels'
// requests and never competes with them inside one worker (the skeleton: worker/own-core.ts).
import { serveOwnCore } from '../worker/own-core.ts';
import { DeviceHost } from './host.ts';

serveOwnCore((core, simd) => new DeviceHost(core, simd));
