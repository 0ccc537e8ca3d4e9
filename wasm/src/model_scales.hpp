// modelScales: the attention scale factor real models compute, each computed here from the
// parameters of the model's own configuration and code (never typed in as a number), with the file
// it follows. The scale is the factor c on q·k of one head before the softmax, as the model's code
// applies it at its reference context; where a model also changes the logits elsewhere (YaRN's
// concentration on the rotary embedding, a position-dependent temperature, a soft-cap), the entry
// says so and the factor is included in `scale` only when it multiplies every logit of every row at
// the model's full context (gpt-oss's concentration², DeepSeek's mscale²). Each `scale` lies in
// (0, 1e4], so any entry can be passed to the panels as an explicit scale.
#pragma once

#include <string>
#include <vector>

namespace sqrtdk {

struct ModelParam {
  std::string name;  // the configuration's own name where it has one ("query_pre_attn_scalar")
  double value = 0.0;
};

struct ModelScale {
  std::string model;    // "Gemma 2 27B"
  int d_head = 0;       // the q·k dimension of a head (DeepSeek-V3: qk_nope 128 + qk_rope 64 = 192)
  std::string formula;  // how the model computes c, with its parameters' names ("1/√query_pre_attn_scalar")
  double scale = 0.0;   // c, computed from `params` by the formula
  double inv_sqrt_d_head = 0.0;  // 1/√d_head, for the ratio scale · √d_head
  double softcap = 0.0; // attention-logit soft-cap cap · tanh(s / cap) after the scale; 0 = none
  bool sinks = false;   // a learned sink logit per head (gpt-oss)
  bool qk_norm = false; // q and k normalised per head (RMSNorm or L2) before the product
  std::vector<ModelParam> params;  // the configuration values the scale is computed from
  std::string note;     // what the number leaves out or why the model chose it
  std::string source;   // "owner/repo: path (symbol)" of the code and configuration it follows
};

// The catalogue, in a stable order (GPT-2 first).
std::vector<ModelScale> model_scales();

}  // namespace sqrtdk
