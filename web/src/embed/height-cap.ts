// The one cap on a height an embed reports to its host page: embed.js, the <sqrtdk-lab> element (web/src/embed/host/, written out by the build with this number) and the MDX component (formats.ts) size a frame to at most this many px.
/** The tallest a host makes a frame of the lab, px (the interview view, the tallest, is about 9,000 px at a phone's width). */
export const MAX_EMBED_HEIGHT = 12000;

/** The placeholder of MAX_EMBED_HEIGHT in the host scripts' sources (web/src/embed/host/*.js). */
export const MAX_EMBED_HEIGHT_TOKEN = '__SQRTDK_MAX_EMBED_HEIGHT__';

/** A host script's source with the cap written in. */
export function withHeightCap(source: string): string {
  if (!source.includes(MAX_EMBED_HEIGHT_TOKEN)) throw new Error(`a host script without ${MAX_EMBED_HEIGHT_TOKEN}`);
  return source.split(MAX_EMBED_HEIGHT_TOKEN).join(String(MAX_EMBED_HEIGHT));
}
