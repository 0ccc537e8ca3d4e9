// modelScales: the attention scale real models compute, from their configuration values (C++: wasm/src/model_scales.*).

/** The records of its results, by the name of their C++ struct and TypeScript interface. */
export const RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  ModelParam: {
    doc: "One configuration value a model's scale is computed from.",
    fields: { name: { type: 'string' }, value: { type: 'number' } },
  },
  ModelScale: {
    doc: 'The attention scale factor a real model computes, computed by the core from the model\'s configuration values (`params`) by `formula`, with the code and configuration it follows (`source`, "owner/repo: path (symbol)").',
    fields: {
      model: { type: 'string' },
      dHead: { type: 'number', doc: "the q·k dimension of a head (DeepSeek-V3's MLA: 128 + 64 = 192)" },
      formula: { type: 'string', doc: "how the model computes c, in its parameters' names" },
      scale: { type: 'number', doc: 'c on q·k of one head, in (0, 1e4]: pass it as an explicit scale to reproduce the model' },
      invSqrtDHead: { type: 'number', doc: '1/√dHead, for the ratio scale / invSqrtDHead' },
      softcap: { type: 'number', nullIf: 'nonpositive', doc: 'the attention-logit soft-cap cap · tanh(s / cap) after the scale, or null' },
      sinks: { type: 'bool', doc: 'a learned sink logit per head (gpt-oss)' },
      qkNorm: { type: 'bool', doc: 'q and k normalised per head before the product' },
      params: { type: 'ModelParam[]' },
      note: { type: 'string', doc: 'what the number leaves out, or why the model chose it' },
      source: { type: 'string' },
    },
  },
}));

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  modelScales: {
    doc: 'the scale real models compute, each from its config values, with its source file',
    cpp: 'model_scales', call: 'none', part: 'full', costed: false,
    params: {},
    result: 'ModelScale[]',
    example: [],
  },
}));
