// The words the offline classifier knows, per class and language (en, de, fr, es, zh, ja): nouns
// and verbs of each class, series words, counts, units, topic and determiner words, and the verbs
// and particles of an image turned into a video. Data only; ./cues.ts and ./counts.ts read it.

export type Cls = 'image' | 'audio' | 'model3d' | 'video' | 'document';
export type Role = 'noun' | 'verb' | 'series' | 'storyboard' | 'none';

/**
 * Vocabulary entries. Latin script: `word` exact; `word~` with an inflection of up to three letters;
 * `word*` any ending; a leading `-` also as the head of a compound (Titelbild, Werbeclip); `_`
 * between words matches a space or a hyphen; `!` marks a plural form; `@fr,es` limits a word that
 * means something else elsewhere to those languages (French "son" is a sound, English "son" is not).
 * Chinese and Japanese entries are plain strings. Where matches overlap the longest wins (動画 is not
 * 画, 絵コンテ is not 絵, "texture" is not "text").
 */
export type Vocab = { cls: Cls | null; role: Role; words: string };
export const VOCAB: Vocab[] = [
  // --- image
  {
    cls: 'image',
    role: 'noun',
    words: `image~ picture~ photo~ photograph~ illustration~ drawing~ painting~ sketch~ poster~ print~ logo~ icon icons! banner~ flyer~
      artwork~ wallpaper~ portrait~ sticker~ postcard~ graphic~ cover~ thumbnail~ visual~ mascot~ emblem~ clipart texture~
      -bild~ -foto~ zeichnung~ gemälde~ -plakat~ -poster~ -grafik~ skizze~ porträt~ -logo~ titelbild~
      dessin~ affiche~ peinture~ visuel~ croquis portrait~ vignette~
      imagen imágenes! fotografía~ ilustración ilustraciones! dibujo~ cartel~ póster~ afiche~ pintura~ cuadro~ retrato~ logotipo~
      图片 图像 照片 相片 插画 插图 海报 画作 绘画 壁纸 图标 标志 封面 漫画 头像 图
      画像 写真 イラスト ポスター 絵 ロゴ アイコン 壁紙 表紙 バナー チラシ`,
  },
  { cls: 'image', role: 'verb', words: `paint draw sketch illustrate photograph zeichne* male@de malen@de skizziere* illustriere* dessine* peins peindre illustre* dibuja* pinta* píntame ilustra 画 描いて 描く 描き` },
  // --- audio
  {
    cls: 'audio',
    role: 'noun',
    words: `audio sound~ soundtrack~ tune~ jingle~ song~ music~ melody melodies! ringtone~ lullaby lullabies! chime~ anthem~ sfx bgm
      -musik~ -melodie~ lied~ -lieder! -song~ -jingle~ klang~ klänge! -sound~ hörspiel~
      musique~ mélodie~ chanson~ son@fr sons@fr bruitage~ berceuse~ sonnerie~
      música~ musica~ melodía~ canción canciones! sonido~ cancioncita nana@es
      音乐 歌曲 乐曲 曲子 旋律 音效 配乐 铃声 声音 音频 主题曲 曲 歌
      音楽 メロディー メロディ ジングル 効果音 サウンド 着信音 通知音 音声 音`,
  },
  // --- 3D
  {
    cls: 'model3d',
    role: 'noun',
    words: `3d 3_d gltf glb mesh~ low_poly lowpoly three_dimensions three_dimensional model~ sculpture~
      -modell~ dreidimensional~ modelliere* drei_dimensionen
      modèle~ modélise* trois_dimensions tridimensionnel~
      modelo~ modela modelar modelado tres_dimensiones tridimensional~
      模型 三维 立体 三次元 3次元 モデル モデリング スカルプト`,
  },
  // --- video
  {
    cls: 'video',
    role: 'noun',
    words: `video~ clip~ film~ movie~ animation~ trailer~ teaser~ reel~ footage timelapse time_lapse
      -video~ -clip~ -film~ -spot~@de zeichentrick*
      vidéo~ court_métrage bande_annonce spot~@fr,es
      vídeo~ película~ cortometraje~ animación animaciones tráiler~
      视频 短片 影片 动画 宣传片 电影 片子 微电影 广告片 录像
      動画 ビデオ 映像 アニメーション アニメ ムービー 映画 クリップ`,
  },
  // --- documents (a storyboard is a document with a confirmation after it)
  {
    cls: 'document',
    role: 'noun',
    words: `brief~ briefing~ script~ text~ copywriting tagline~ slogan~ description~ screenplay~ outline~ poem~ lyrics article~ essay~ caption~ headline~ document~ treatment~
      -text~ drehbuch~ skript~ gedicht~ beschreibung~ artikel~ konzept~
      texte~ scénario~ poème~ rédaction
      texto~ guion~ guión descripción eslogan~ artículo~ poema~
      文案 简报 脚本 剧本 文章 大纲 说明 文本 文字
      文章 テキスト コピー キャッチコピー 台本 企画書 ブリーフ 説明文 記事 コピー文`,
  },
  { cls: 'document', role: 'storyboard', words: `storyboard~ scénarimage~ guion_gráfico guiones_gráficos 分镜 故事板 絵コンテ ストーリーボード` },
  { cls: 'document', role: 'verb', words: `write draft schreib* verfasse* formuliere* rédige* écris écrire escribe* redacta* 写 撰写 書いて 書く` },
  // --- series words (their own count: 3 unless a number says otherwise)
  {
    cls: null,
    role: 'series',
    words: `-serie~ set_of collection_of range_of -reihe
      série~ ensemble_de ensemble_d collection_de
      conjunto_de juego_de colección_de
      系列 一套 一组 シリーズ セット`,
  },
  // --- words that contain a cue but are none (画面 = screen, 动画 is listed as video)
  { cls: null, role: 'none', words: `画面 计划 企画 映画館 bildschirm~ sound_design` },
];

/** Digits, number words, vague quantities (→ 3). */
export const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12,
  ein: 1, eine: 1, einen: 1, eins: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, zwölf: 12,
  un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, dix: 10, douze: 12,
  uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, doce: 12,
  a: 1, an: 1, single: 1, einzelnes: 1, seul: 1, seule: 1, solo: 1,
};
/** Several words in a row that are a count (a couple of → 2, ein paar → 3). */
export const COUNT_PHRASES: [string, number][] = [
  ['half a dozen', 6], ['a dozen', 12], ['dozen', 12], ['a couple of', 2], ['couple of', 2], ['a pair of', 2], ['pair of', 2],
  ['a few', 3], ['few', 3], ['several', 3], ['multiple', 3], ['some', 3], ['various', 3], ['a number of', 3], ['a bunch of', 3], ['a handful of', 3],
  ['ein dutzend', 12], ['ein paar', 3], ['einige', 3], ['mehrere', 3], ['verschiedene', 3], ['paar', 3],
  ['une douzaine', 12], ['une paire de', 2], ['quelques', 3], ['plusieurs', 3], ['différentes', 3], ['différents', 3], ['divers', 3], ['diverses', 3],
  ['una docena', 12], ['un par de', 2], ['unos cuantos', 3], ['unas cuantas', 3], ['varios', 3], ['varias', 3], ['algunos', 3], ['algunas', 3], ['unos', 3], ['unas', 3],
];
/** Units: a number before them is a size, a length or a resolution, not a count. */
export const UNITS = new Set('s sec secs second seconds minute minutes min mins hour hours px k p x percent sekunden sekunde minuten stunden secondes seconde heures segundos segundo minutos horas mm cm m'.split(' '));
export const CJK_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10, 十二: 12, 十一: 11 };
export const CJK_CLASSIFIER = '张幅个套款份枚点つ本首段部支条组';
export const CJK_VAGUE = /(几[张幅个款份首段部]|一些|若干|多[张幅个款]|何枚か|数枚|何点か|数点|いくつか|複数)/u;
/** "for …", "about …": a cue here is what the work is for or about, not the work itself. */
export const TOPIC = new Set('for about für über zum zur pour sur para sobre acerca'.split(' '));
export const DETERMINER = new Set(
  "this that the my our a an these those your his her its dieses diese dieser diesem das den dem der die mein meine meinen meinem meiner unser unsere unseren unserem ein eine einen einem einer cette ce cet la le l les ma mon mes notre nos une un esta este estas estos la el las los mi mis nuestra nuestro una un".split(' '),
);
export const ANIMATE = /^(animate|animiere|animieren|anime|animez|animer|anima|animar|anímala|anímalo)$/;
export const TRANSFORM = /^(turn|transform|convert|make|change|verwandle|verwandeln|wandle|mach|mache|transforme|transformer|convertis|change|fais|convierte|convertir|transforma|haz|pasa)$/;
export const INTO = new Set(['into', 'zu', 'zum', 'zur']);
export const INTO_WEAK = new Set(['in', 'en']);
export const FROM = /^(from|aus|desde|of)$/;
export const CJK_ANIMATE = /(动起来|動かして|動かす|動く|アニメ化|活起来)/u;
export const CJK_INTO = /(做成|变成|转成|转换成|转为|生成|制作成|改成|に)/u;
export const CJK_FROM = /^(从|用|根据|基于)/u;
