// Why a task waits while its ordered results are being made, in plain words and in the task's
// language: "Waiting for 3 images to finish", never the tools' names.
import { replyLanguage, type ReplyLanguage } from './languages.ts';
import type { GenerationKindName } from './types.ts';

type Counted = Partial<Record<GenerationKindName, number>>;

const NOUN: Record<ReplyLanguage, Record<GenerationKindName, [string, string]>> = {
  en: { IMAGE: ['image', 'images'], VIDEO: ['video clip', 'video clips'], AUDIO: ['audio clip', 'audio clips'], MODEL_3D: ['3D model', '3D models'] },
  de: { IMAGE: ['Bild', 'Bilder'], VIDEO: ['Videoclip', 'Videoclips'], AUDIO: ['Audioclip', 'Audioclips'], MODEL_3D: ['3D-Modell', '3D-Modelle'] },
  fr: { IMAGE: ['image', 'images'], VIDEO: ['clip vidéo', 'clips vidéo'], AUDIO: ['clip audio', 'clips audio'], MODEL_3D: ['modèle 3D', 'modèles 3D'] },
  es: { IMAGE: ['imagen', 'imágenes'], VIDEO: ['clip de vídeo', 'clips de vídeo'], AUDIO: ['clip de audio', 'clips de audio'], MODEL_3D: ['modelo 3D', 'modelos 3D'] },
  zh: { IMAGE: ['张图片', '张图片'], VIDEO: ['段视频', '段视频'], AUDIO: ['段音频', '段音频'], MODEL_3D: ['个 3D 模型', '个 3D 模型'] },
  ja: { IMAGE: ['枚の画像', '枚の画像'], VIDEO: ['本の動画', '本の動画'], AUDIO: ['本の音声', '本の音声'], MODEL_3D: ['個の3Dモデル', '個の3Dモデル'] },
};

/** When nothing known is being made: the results in general. */
const RESULTS: Record<ReplyLanguage, string> = { en: 'the results', de: 'die Ergebnisse', fr: 'les résultats', es: 'los resultados', zh: '结果', ja: '結果' };

const AND: Record<ReplyLanguage, string> = { en: ' and ', de: ' und ', fr: ' et ', es: ' y ', zh: '和', ja: 'と' };

const SENTENCE: Record<ReplyLanguage, (what: string) => string> = {
  en: (w) => `Waiting for ${w} to finish`,
  de: (w) => `Wartet auf ${w}`,
  fr: (w) => `En attente de ${w}`,
  es: (w) => `Esperando ${w}`,
  zh: (w) => `正在等待${w}生成完成`,
  ja: (w) => `${w}の生成を待っています`,
};

/** "Waiting for 3 images and 1 video clip to finish" in the task's language. */
export function waitingForResults(kinds: GenerationKindName[], ...language: (string | null | undefined)[]): string {
  const lang = replyLanguage(...language);
  const counts: Counted = {};
  for (const k of kinds) counts[k] = (counts[k] ?? 0) + 1;
  const parts = (Object.entries(counts) as [GenerationKindName, number][]).map(([k, n]) => {
    const [one, many] = NOUN[lang][k];
    return lang === 'zh' || lang === 'ja' ? `${n}${n === 1 ? one : many}` : `${n} ${n === 1 ? one : many}`;
  });
  return SENTENCE[lang](parts.length ? parts.join(AND[lang]) : RESULTS[lang]);
}
