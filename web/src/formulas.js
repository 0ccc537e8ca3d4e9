// The TeX of every formula on the page. KaTeX renders them at build time (vite.config.ts, virtual
// module 'virtual:formulas'), so the page ships HTML + KaTeX's CSS and fonts, not KaTeX's parser.
export const FORMULAS = {
  variance: String.raw`\operatorname{Var}(q\cdot k)=\sum_{i=1}^{d_k}\operatorname{Var}(q_i k_i)=d_k\,\sigma^4,\qquad \operatorname{Var}\!\Big(\tfrac{q\cdot k}{\sqrt{d_k}}\Big)=\sigma^4,\qquad \operatorname{Var}\!\Big(\tfrac{q\cdot k}{d_k}\Big)=\tfrac{\sigma^4}{d_k}`,
  saturation: String.raw`p=\operatorname{softmax}\!\big(c\,q K^{\top}\big),\quad H(p)=-\sum_{j=1}^{L}p_j\ln p_j\le \ln L,\quad c\in\Big\{1,\ \tfrac{1}{\sqrt{d_k}},\ \tfrac{1}{d_k},\ \tfrac{1}{\sqrt{h\,d_k}}\Big\}`,
  gradient: String.raw`J=\frac{\partial p}{\partial s}=\operatorname{diag}(p)-p\,p^{\top},\qquad \frac{\partial \ell}{\partial q}=c\,K^{\top}J^{\top}\frac{\partial \ell}{\partial p}`,
  twoLogit: String.raw`s=[g,0]:\quad J=p_1p_2\begin{pmatrix}1&-1\\-1&1\end{pmatrix},\quad \|J\|_F=\|J\|_2=2\,p_1p_2\le\tfrac12`,
  article: String.raw`s_j\sim\mathcal N(0,\sigma^2)\ \text{iid}:\quad \mathbb E[H]\xrightarrow{L\to\infty}\ln L-\tfrac{\sigma^2}{2}`,
};
