// The Simplified Chinese of ./messages.ts (its keys), in its own module so a page in one language
// loads only its own strings (web/src/i18n/catalogue.ts).
import type { shareEn } from './share.ts';

export const shareZh: Record<keyof typeof shareEn, string> = {
  'share.computing': '正在你的浏览器中计算……',
  'share.static': '默认设置下的图表，在构建网站时算出；实时图表算好后会替换它。',
  'share.noscript': '实时实验需要 JavaScript 和 WebAssembly；上面的图是在构建网站时算出的。',
  'share.card.live': '在你的浏览器中实时计算，数字可复现',
  'share.card.alt': '{title}：{number}',
  'share.num.at': '{what}，{scale}，d_k = {dk}',
  'share.pair': '{a}，{b}',
  'share.labelled': '{a}：{b}',
  'share.fu.ratio': '不缩放时 d_k = 1024 与 d_k = 512 的 Var(q·k) 之比',
  'share.fu.bars': '不缩放的 Var(q·k)',
  'share.dev.flops': '[8, 128, 64] 上一次注意力调用的浮点运算数：是计数，不是速度（该视图在你自己的设备上计时）',
  'share.train.steps': '{variant}：{steps} 步后的损失',
  'share.tens.note': '结构化示例张量，{scale}',
  'share.mup.at': '{what}，{scale}，d_k = {dk}，{rho}',
  'share.wild.bars': '有效缩放 × √d_head（1 即 1/√d_head）',
  'share.wild.model': '{model}：有效缩放（× 1/√d_head）',
};
