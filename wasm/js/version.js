// The version of √dk Lab's core, without loading the wasm module (the page puts it in every link
// it copies, as `cv=`). It is the numbers' version: bump it whenever any number the core returns
// for a fixed seed changes (its random streams, its algorithms, its defaults), and record new
// golden results (tests/web/golden-links.test.ts). It equals info().version (the C++ kVersion,
// wasm/src/experiments.hpp) and package.json's version; tests/node/api.test.mjs holds all three
// equal.
export const CORE_VERSION = '0.6.0';
