// The TeX of the page's formulas, rendered by KaTeX at build time: the long-context factors, and each view's formulas in English and Chinese.
/**
 * The factor λ of each long-context method the panel draws (web/src/requests/longctx.ts PANEL_METHODS,
 * in its order; tests/web/labs.test.ts holds the two lists equal), as the core computes it
 * (wasm/src/long_context.cpp long_context_multiplier) for a query at the end of L keys: Llama 4's
 * temperature 1 + β ln(⌊(pos + 1)/F⌋ + 1) with pos + 1 = L (F 8192, β 0.1), SSMax's s ln n with n = L (s 0.43).
 */
export const LONG_FACTORS = {
  fixed: String.raw`\lambda_{\text{fixed}}=1`,
  logn: String.raw`\lambda_{\log n}=\max\!\Big(1,\tfrac{\ln L}{\ln L_{\text{train}}}\Big)`,
  yarn: String.raw`\lambda_{\text{YaRN}}=\big(0.1\ln\tfrac{L}{L_{\text{train}}}+1\big)^2`,
  article: String.raw`\lambda_{\text{article}}=\sqrt{\tfrac{L}{L_{\text{train}}}}`,
  llama4: String.raw`\lambda_{\text{Llama 4}}=1+0.1\ln\!\Big(\Big\lfloor\tfrac{L}{8192}\Big\rfloor+1\Big)`,
  ssmax: String.raw`\lambda_{\text{SSMax}}=0.43\,\ln L`,
};

/**
 * s_j = λ · q·k_j / √d_k with the factor of each method in `methods` (keys of LONG_FACTORS).
 * @param {readonly string[]} methods
 * @returns {string}
 */
export function longContextFormula(methods) {
  /** @type {Record<string, string>} */
  const table = LONG_FACTORS;
  const factors = methods.map((m) => {
    if (!Object.prototype.hasOwnProperty.call(table, m)) throw new Error(`longContextFormula: no factor for method '${m}'`);
    return table[m];
  });
  // each factor its own piece (the build cuts at \quad: a phone wraps between factors)
  return [String.raw`s_j=\lambda\,\frac{q\cdot k_j}{\sqrt{d_k}}`, ...factors].join(String.raw`,\quad `);
}

// The TeX of every formula on the page. KaTeX renders them at build time (vite.config.ts, virtual
// module 'virtual:formulas'), so the page ships HTML + KaTeX's CSS and fonts, not KaTeX's parser.
export const FORMULAS = {
  variance: String.raw`\operatorname{Var}(q\cdot k)=\sum_{i=1}^{d_k}\operatorname{Var}(q_i k_i)=d_k\,\sigma^4,\qquad \operatorname{Var}\!\Big(\tfrac{q\cdot k}{\sqrt{d_k}}\Big)=\sigma^4,\qquad \operatorname{Var}\!\Big(\tfrac{q\cdot k}{d_k}\Big)=\tfrac{\sigma^4}{d_k}`,
  saturation: String.raw`p=\operatorname{softmax}\!\big(c\,q K^{\top}\big),\quad H(p)=-\sum_{j=1}^{L}p_j\ln p_j\le \ln L,\quad c\in\Big\{1,\ \tfrac{1}{\sqrt{d_k}},\ \tfrac{1}{d_k},\ \tfrac{1}{\sqrt{h\,d_k}}\Big\}`,
  gradient: String.raw`J=\frac{\partial p}{\partial s}=\operatorname{diag}(p)-p\,p^{\top},\qquad \frac{\partial \ell}{\partial q}=c\,K^{\top}J^{\top}\frac{\partial \ell}{\partial p}`,
  twoLogit: String.raw`s=[g,0]:\quad J=p_1p_2\begin{pmatrix}1&-1\\-1&1\end{pmatrix},\quad \|J\|_F=\|J\|_2=2\,p_1p_2\le\tfrac12`,
  precision: String.raw`\text{naive: } p_j=\frac{e^{s_j}}{\sum_i e^{s_i}},\quad \text{safe: } p_j=\frac{e^{s_j-m}}{\sum_i e^{s_i-m}},\ m=\max_i s_i,\quad \text{online: } m_b=\max(m_{b-1},\max_{i\in b}s_i),\ \ell_b=\ell_{b-1}e^{m_{b-1}-m_b}+\sum_{i\in b}e^{s_i-m_b}`,
  longctx: longContextFormula(Object.keys(LONG_FACTORS)),
  gqa: String.raw`\text{head } h \text{ reads K/V head } \big\lfloor h\,/\,(h_q/h_{kv})\big\rfloor,\qquad \text{KV bytes per token}=2\cdot n_{\text{layers}}\cdot h_{kv}\cdot d_{\text{head}}\cdot \text{bytes per element}`,
  tensors: String.raw`\operatorname{Var}(q\cdot k)\overset{\text{iid}}{=}d_k\,\mathbb E[q_i^2]\,\mathbb E[k_i^2]\quad(=d_k \text{ for } \mathcal N(0,1)),\qquad \|J\|_F=\big\|\operatorname{diag}(p)-p\,p^{\top}\big\|_F`,
  training: String.raw`s_{ij}=c_h\,\hat q_i\cdot\hat k_j:\quad c_h\in\Big\{1,\ \tfrac{1}{\sqrt{d_k}},\ \tfrac{1}{d_k},\ \tau_h\Big\};\quad \text{QK-LN: }\hat q=\operatorname{LN}(q),\ \hat k=\operatorname{LN}(k),\ c=\tfrac{1}{\sqrt{d_k}};\quad \text{QK-L2: }\hat q=\tfrac{q}{\|q\|},\ \hat k=\tfrac{k}{\|k\|},\ c=g_h`,
  trainingOpt: String.raw`\text{clip: } g\leftarrow g\cdot\min\!\Big(1,\tfrac{\text{clip}}{\|g\|_2}\Big),\qquad \text{warm-up: } \eta_t=\eta\cdot\min\!\Big(1,\tfrac{t+1}{\text{warmup}}\Big),\qquad \text{iid: } \operatorname{Var}(\hat q\cdot\hat k)=d_k\,\mathbb E[\hat q^2]\,\mathbb E[\hat k^2]`,
  ivDerivation: String.raw`\operatorname{Var}(q\cdot k)=\sum_{i=1}^{d_k}\operatorname{Var}(q_i k_i)=\sum_{i=1}^{d_k}\mathbb E[q_i^2]\,\mathbb E[k_i^2]=d_k\,\sigma^4\qquad\Longrightarrow\qquad \operatorname{Var}\!\Big(\tfrac{q\cdot k}{\sqrt{d_k}}\Big)=\sigma^4,\qquad \operatorname{Var}\!\Big(\tfrac{q\cdot k}{d_k}\Big)=\tfrac{\sigma^4}{d_k}`,
  ivJacobian: String.raw`J=\frac{\partial p}{\partial s}=\operatorname{diag}(p)-p\,p^{\top},\qquad s=[g,0]:\ \|J\|_F=2\,p_1p_2\le\tfrac12,\qquad H(p)\le\ln L`,
  article: String.raw`s_j\sim\mathcal N(0,\sigma^2)\ \text{iid}:\quad \mathbb E[H]\xrightarrow{L\to\infty}\ln L-\tfrac{\sigma^2}{2}`,
};

/** The formulas whose words change in Simplified Chinese (the rest are symbols only). */
export const FORMULAS_ZH = {
  precision: String.raw`\text{朴素：} p_j=\frac{e^{s_j}}{\sum_i e^{s_i}},\quad \text{安全：} p_j=\frac{e^{s_j-m}}{\sum_i e^{s_i-m}},\ m=\max_i s_i,\quad \text{在线：} m_b=\max(m_{b-1},\max_{i\in b}s_i),\ \ell_b=\ell_{b-1}e^{m_{b-1}-m_b}+\sum_{i\in b}e^{s_i-m_b}`,
  gqa: String.raw`\text{查询头 } h \text{ 读取 K/V 头 } \big\lfloor h\,/\,(h_q/h_{kv})\big\rfloor,\qquad \text{每个 token 的 KV 字节数}=2\cdot n_{\text{层}}\cdot h_{kv}\cdot d_{\text{head}}\cdot \text{每个元素的字节数}`,
  tensors: String.raw`\operatorname{Var}(q\cdot k)\overset{\text{独立同分布}}{=}d_k\,\mathbb E[q_i^2]\,\mathbb E[k_i^2]\quad(\mathcal N(0,1)\text{ 时 }=d_k),\qquad \|J\|_F=\big\|\operatorname{diag}(p)-p\,p^{\top}\big\|_F`,
  training: String.raw`s_{ij}=c_h\,\hat q_i\cdot\hat k_j:\quad c_h\in\Big\{1,\ \tfrac{1}{\sqrt{d_k}},\ \tfrac{1}{d_k},\ \tau_h\Big\};\quad \text{QK-LN：}\hat q=\operatorname{LN}(q),\ \hat k=\operatorname{LN}(k),\ c=\tfrac{1}{\sqrt{d_k}};\quad \text{QK-L2：}\hat q=\tfrac{q}{\|q\|},\ \hat k=\tfrac{k}{\|k\|},\ c=g_h`,
  trainingOpt: String.raw`\text{梯度裁剪：} g\leftarrow g\cdot\min\!\Big(1,\tfrac{\text{clip}}{\|g\|_2}\Big),\qquad \text{预热：} \eta_t=\eta\cdot\min\!\Big(1,\tfrac{t+1}{\text{warmup}}\Big),\qquad \text{独立同分布：} \operatorname{Var}(\hat q\cdot\hat k)=d_k\,\mathbb E[\hat q^2]\,\mathbb E[\hat k^2]`,
  article: String.raw`s_j\sim\mathcal N(0,\sigma^2)\ \text{独立同分布}:\quad \mathbb E[H]\xrightarrow{L\to\infty}\ln L-\tfrac{\sigma^2}{2}`,
};
