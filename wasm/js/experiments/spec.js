// The shape of an experiment's declaration, as JSDoc types only: ParamSpec, ExperimentSpec, FieldSpec, RecordSpec.
/**
 * One parameter. `type` says how core.js reads it: int, number, bool, seed (0..2³²−1), kernel
 * ('scalar' | 'simd', default: the build's), scale (a name, a number or { power: p }), choice (one
 * of `values`), softcap (0 = off), correlation (−1..1), intList, scaleList, choiceList, float32 (a
 * Float32Array of the shape in `doc`), numberList, sinks (one logit per head), sink (one logit), alibi
 * ('press' or a Float32Array of one slope per head) or state ({ output, lse } of a partial attention).
 * `default`: what a call that leaves it out gets (absent: required, or derived as `doc` says).
 * `range`: the inclusive bounds the core enforces (of each element, for lists; of the length, for numberList).
 * `count`: how many elements a list (intList, scaleList, choiceList) holds, inclusive.
 * `field`: the member of the C++ Params struct it goes into, if not the key in snake_case; null: the
 * binding reads it itself (a tensor copied into the heap after the call's budget check, a value of
 * its own form); every other parameter is read by the generated read_params (experiment_reads.hpp).
 * `ts`: its TypeScript type, where not the one `type` gives (a named union, a wider input).
 * `optional`: a parameter with no `default` that a call may still leave out (derived as `doc` says).
 * `doc`: the doc comment of the parameter in the generated experiment-types.d.ts (its range and
 * default are added there where it does not say them).
 * @typedef {object} ParamSpec
 * @property {'int'|'number'|'bool'|'seed'|'kernel'|'scale'|'choice'|'softcap'|'correlation'|'intList'|'scaleList'|'choiceList'|'float32'|'numberList'|'sinks'|'sink'|'alibi'|'state'} type
 * @property {number|boolean|string|null|readonly (string|number)[]} [default]
 * @property {readonly [number, number]} [range]
 * @property {readonly [number, number]} [count]
 * @property {readonly string[]} [values]
 * @property {string|null} [field]
 * @property {string} [ts]
 * @property {boolean} [optional]
 * @property {string} doc
 */
/**
 * One experiment: a method of the core (core.js, typed in core.d.ts) and a C++ function
 * (wasm/src/<cpp>.hpp, a family's header), bound in wasm/bindings/bindings.cpp as js_<cpp>.
 * `call`: 'params' (core[name](params), one object), 'positional' (its own arguments) or 'none'.
 * `part`: 'first' (also in the first part of the SIMD128 build, sqrtdk-simd-first) or 'full'.
 * `costed`: core.cost(name, params) estimates it (the call's parameter checks, then the cost
 * model's terms instead of the work). `result`: the fields of its result (of its C++ <Cpp>Result,
 * the interface <Name>Result), or the type of a result that is not an object ('ModelScale[]').
 * `flags`: the C++ expression, of the Params `p`, of each flag a field's `when` names (the fields a
 * result carries only for some calls). `convert: 'own'`: bindings.cpp converts its result itself
 * (no C++ result struct, or staged buffers); else the conversion is generated. `example`: a small
 * call, for the tests. `struct`: the C++ Params struct of a 'params' call, if not <Cpp>Params;
 * null: it has none (the binding reads its arguments). A 'params' call whose parameters
 * read_params reads all (no `field: null`) and whose result is converted by the generated code has
 * its whole binding generated (experiment_results.hpp); any other is a js_<cpp> in bindings.cpp.
 * `cppStructs: 'generated'`: its C++ Params and Result structs and the declaration of its function are
 * generated from its parameters and result fields (experiment_structs.hpp); its family's .cpp defines
 * the function. Without it they are written in the family's header.
 * `pack: true`: its parameters that read_params reads go to the core as numbers, not as properties:
 * core.js writes them into a buffer of the module's heap before the call (checks.js `packParams`, in
 * the layout of experiments.js packedLayout) and the generated read_params reads them there, with no
 * property read per parameter (a call's fixed cost at small shapes). Only for parameters of the types
 * packedLayout knows.
 * `plan` (every 'params' call): how the page's worker pool computes a request of it, a rule of
 * PLAN_RULES in web/src/worker/plan.ts named by the shape of the parameters and result it splits:
 * 'single' (one call, as it is), 'oneGroupPreview' (a first estimate from one K/V group of heads,
 * attentionStats' shape), 'scalesByDks' (points[scale][d_k] by (d_k, scale), a one-head preview),
 * 'rowsByDks' (rows[d_k] by d_k with the histograms of histDk, a preview of fewer samples) or
 * 'pointsByLengths' (points[method][length] by seqLens, a preview of fewer queries).
 * @typedef {object} ExperimentSpec
 * @property {string} doc
 * @property {string} cpp
 * @property {'params'|'positional'|'none'} call
 * @property {'first'|'full'} part
 * @property {boolean} costed
 * @property {Record<string, ParamSpec>} params
 * @property {Record<string, FieldSpec>|string} result
 * @property {Record<string, string>} [flags]
 * @property {'own'} [convert]
 * @property {'generated'} [cppStructs]
 * @property {readonly unknown[]} example  the arguments of a small call
 * @property {string|null} [struct]
 * @property {boolean} [pack]
 * @property {string} [plan]
 */

/**
 * One field of a result or of a record: the binding's conversion of it (generated into the build
 * tree, experiment_results.hpp) and its type in wasm/js/experiment-types.d.ts (generated, with
 * `doc` as its doc comment) both come from here. `type`: number, bool, string, f64
 * (std::vector<double> → Float64Array), f32 (std::vector<float> → Float32Array), object (the
 * `fields` given, read from the same C++ struct), the name of a record of RECORDS (its C++ struct
 * and its interface), or a list of those ('Moments[]', 'LongContextPoint[][]'). `cpp`: the C++
 * member it is read from, a path from the enclosing struct (default: the key in snake_case).
 * `when`: the field is there only when that flag of the call holds (the experiment's `flags`).
 * `nullIf`: null instead of a NaN ('nan') or of a value ≤ 0 ('nonpositive'). `ts`: its TypeScript
 * type, where not the one `type` gives. `doc`: what it is, with its shape and unit.
 * @typedef {object} FieldSpec
 * @property {string} type
 * @property {string} [doc]
 * @property {string} [cpp]
 * @property {string} [when]
 * @property {'nan'|'nonpositive'} [nullIf]
 * @property {string} [ts]
 * @property {Record<string, FieldSpec>} [fields]
 */
/**
 * A record: a C++ struct of a result and the interface of the same name, its fields in the order
 * the binding sets them.
 * @typedef {object} RecordSpec
 * @property {string} [doc]
 * @property {Record<string, FieldSpec>} fields
 */
export {};
