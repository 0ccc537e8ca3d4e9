// Every page unit test builds requests as the page does (some while the test file is collected),
// and the page sizes them by the core's own cost model (web/src/worker/cost.ts): give it the
// built core before any test file is imported, as main.ts gives it the page's before mounting.
import { loadCore } from '../../wasm/js/core.js';
import { useCostCore } from '../../web/src/worker/cost.ts';

useCostCore(await loadCore({ kernel: 'auto' }));
