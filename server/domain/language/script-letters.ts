// Letters that tell languages apart within one script: Han forms only Japanese or only Chinese
// writes, and Cyrillic letters of languages that are not Russian.

// Kanji in their Japanese (shinjitai / kokuji) forms, which Chinese writes differently.
export const JA_ONLY_KANJI = new Set([...'図絵気変黒緑様込売広円拡転沢辺楽読単関駅続縦隠覚発験済戦対伝脳訳薬覧両歴労録枠']);
// Simplified (and a few traditional) Chinese forms that Japanese does not use.
export const ZH_ONLY_HAN = new Set([
  ...'这张个们为图吗么请让给换点颜变红绿蓝说没还会对发开关实现样边过进远几风头广长爱乐节页东车书动门问间时无',
  ...'這們為圖嗎麼請讓給換點顏變綠藍說沒還會對發開關實現樣邊過進遠幾廣樂節頁',
]);
export const UKRAINIAN_ETC = /[іїєґўђјљњћџѓќѕІЇЄҐЎЂЈЉЊЋЏЃЌЅ]/u;
