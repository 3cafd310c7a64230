// Language of a short chat message, as a pure and deterministic function (no dependencies, no I/O).
// A task keeps the language of the user's own words: detected from the original message and updated
// only when the user clearly switches (`nextTaskLanguage`).
//
// How it decides:
//  1. Strip what is not the user's own prose: code, URLs, e-mails, @mentions, #tags/hex colours, file
//     names, quoted text (product names, captions to render), tokens with digits (v2, 4k), camelCase /
//     snake_case identifiers and, in mixed-case text, all-caps acronyms (PNG, RGB).
//  2. Count the scripts, in rough "word" units. Han and kana → zh / ja (kana or Japanese-only kanji
//     forms → ja), Hangul → ko, Cyrillic → ru; the dominant script wins and the share of the others
//     lowers the confidence ("purity").
//  3. For Latin script, score en/de/fr/es/it/nl/pt over small lexicons (function words, chat words,
//     and creative-studio vocabulary). A word listed for k languages gives 1/k to each. Unknown words
//     give weak evidence from characteristic letters (ß, ñ, ç, ã …) and endings (-ción, -ção, -ung,
//     -zione, -ij …). Letters of other Latin-script languages (å ø ł ş …) feed an "other" bucket, which
//     yields 'und'.
//  Confidence = margin between the best and second-best score × amount of evidence × script purity.

export type LanguageCode = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt' | 'zh' | 'ja' | 'ko' | 'ru' | 'und';

export interface LanguageDetection {
  language: LanguageCode;
  /** 0..1; 0 for 'und'. */
  confidence: number;
}

export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
  pt: 'Portuguese',
  zh: 'Chinese',
  ja: 'Japanese',
  ko: 'Korean',
  ru: 'Russian',
  und: 'Undetermined',
};

/** Default confidence needed to switch a task to another language. */
export const DEFAULT_SWITCH_CONFIDENCE = 0.5;

// ---------------------------------------------------------------------------------------------------
// Latin-script lexicons

const LATIN = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'] as const;
type LatinLanguage = (typeof LATIN)[number];
const OTHER = LATIN.length; // bucket index for "a Latin-script language we do not support"
const BUCKETS = LATIN.length + 1;
const idx = (l: LatinLanguage): number => LATIN.indexOf(l);

const inflect = (stems: string, endings: readonly string[]): string =>
  stems
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((s) => endings.map((e) => s + e))
    .join(' ');

const DE_ADJ_ENDINGS = ['', 'e', 'er', 'en', 'es', 'em'] as const;

const WORDS: Record<LatinLanguage, string> = {
  en: `
    three four five give vertical horizontal
    lol write say place align fill blur paint apply match swap fix adjust increase decrease reduce cake words
    letters cat dog horse bird woman girl boy child kids house tree trees flower flowers city sea ocean beach
    mountain mountains forest car people person face eyes hair riding standing sitting holding wearing first
    second third option ones quite cut off happy birthday summer winter spring autumn party concert movie film
    the a an and or but of to in on at for with from by about into onto this that these those it its it's
    is are was were be been being am have has had do does did don't doesn't didn't can can't could would
    should will won't shall may might must i i'm i'd i'll i've you you're your yours he she we they me my
    him her us them our their what what's which who how why when where there there's here not no yes yeah
    yep nope please pls plz thanks thank thx ty now then just also too very more less much many some any
    all each every other another again make makes made making let let's try use add remove change put give
    show want need like looks look see keep same different one two bit little lot lots bigger smaller
    larger brighter darker lighter bolder bluer redder greener warmer cooler softer sharper blue red green
    yellow black white orange purple pink grey gray brown color colour colors colours background font text
    image images picture pictures photo poster posters banner design style version draft edit create
    generate draw new old instead so if than only still good great nice perfect awesome cool love better
    worse way over under up down left right top bottom corner side center centre middle size title headline
    caption layout render variant variation mood vibe contrast saturation brightness shadow shadows border
    frame shape icon illustration sketch painting scene sky sun night day light dark bright wallpaper cover
    card flyer thumbnail crop resize rotate flip zoom move replace turn both either go ahead sure okay fine
    done next first last back previous undo redo hi hello hey thanks sorry man hat art kind war will was an
    so also alter team update feedback looking lighter slightly bit something anything everything
    maybe it'll that'll isn't aren't wasn't them these those whole keep getting get got let's
    van over door we of is me
  `,
  de: `
    eins zwei drei vier fünf gib hochkant quer variante varianten verwende benutze
    schreib schreibe drauf darauf füg pack male färbe verwende benutze nutze lass lasse leg lege platziere
    schneide rund runde runden eckig sein katze hund pferd vogel mann frau kind kinder haus baum bäume blume
    blumen stadt meer strand berg berge wald auto leute menschen gesicht augen haare erste ersten zweite
    zweiten dritte besser gefällt gefallen sommer winter frühling herbst fest feier geburtstag konzert film
    party abgeschnitten zusammen wieder immer nie
    der die das den dem des ein eine einen einem einer eines und oder aber nicht kein keine keinen ist sind
    war waren bin bist hat habe haben hast wird werden wurde kann kannst können könntest könnten soll
    sollte sollst will willst möchte möchten ich du er sie wir ihr mir mich dir dich uns euch mein meine
    meinen dein deine deinen unser unsere es mit von zu zum zur auf für fuer bei aus nach im am ins vom
    über ueber unter vor hinter neben zwischen durch ohne gegen um an in als wie was wer wo warum wieso
    weshalb wann welche welcher welches dass daß wenn weil auch noch nochmal nochmals schon jetzt nun dann
    mal doch ja nein bitte danke gerne gern sehr etwas bisschen bißchen viel mehr weniger ganz alle alles
    andere anderes anders gleich genau so hier dort da oben unten links rechts mitte mach mache machen
    macht ändere ändern änder aendere füge hinzu entferne entfernen lösche ersetze zeig zeige erstelle
    erstellen generiere zeichne probier probiere versuch versuche nimm gib setz setze dreh drehe verschieb
    verschiebe vergrößere verkleinere plakat plakate bild bilder bildes farbe farben hintergrund schrift
    schriftart text titel überschrift entwurf entwürfe variante stil ecke rand himmel sonne nacht licht
    version poster design layout cool sorry team update feedback super toll gut besser passt sieht sieh
    schöner schön perfekt danach davon dazu darauf einfach lieber statt stattdessen vielleicht man hat
    art kind also so war fast bald hell orange lila rosa eher zurück weiter fertig neu neue neuen neuer
    neues dunkle grafik hallo hey sorry mach's gibt geht gehts geht's okay können bilde zweite dritte
    ${inflect('blau rot grün gelb schwarz weiß weiss grau bunt warm kalt groß klein breit schmal hoch tief kräftig weich scharf leuchtend hell dunkel', DE_ADJ_ENDINGS)}
    ${inflect('blauer röter roter grüner gelber schwärzer grauer bunter wärmer kälter größer groesser kleiner breiter schmaler höher tiefer kräftiger weicher schärfer heller dunkler schöner', ['', 'e', 'en', 'es', 'em'])}
  `,
  fr: `
    deux trois quatre cinq donne donner donnez pareil pareille utilise utiliser variante variantes vertical horizontal annule
    à transforme transformer écris écrire place chat chien cheval oiseau homme femme enfant enfants maison
    arbre fleur fleurs ville mer plage montagne montagnes forêt voiture gens visage yeux cheveux premier
    première deuxième second seconde troisième mieux meilleur meilleure été hiver printemps automne fête
    anniversaire concert film coupé coupée sombre sombres aime
    le la les l' un une des du de d' et ou mais donc est sont suis es être a ai as avons avez ont avoir fait
    fais faire faites peux peut pouvez pourrais pourriez veux veut voudrais je j' tu il elle nous vous ils
    elles on me m' te t' se s' moi toi lui leur mon ma mes ton ta tes son sa ses notre votre vos nos ce c'
    cet cette ces ça cela qui que qu' quoi où comment pourquoi quand quel quelle dans sur sous avec sans
    pour par en au aux chez entre vers plus moins très trop encore aussi juste déjà maintenant puis
    ensuite alors oui non merci s'il plaît plait svp stp bien bon bonne beau belle tout tous toute toutes
    autre nouveau nouvelle nouvel même ici là haut bas gauche droite centre affiche affiches image images
    photo couleur couleurs fond arrière police texte titre bleu bleue bleus bleues rouge rouges vert verte
    jaune noir noire blanc blanche gris grise rose violet clair claire foncé foncée lumineux lumineuse
    lumineuses grand grande petit petite ajoute ajouter enlève enlever supprime supprimer change changer
    mets mettre rends rendre crée créer génère générer dessine essaie essaye montre remplace agrandis
    version style ciel soleil nuit coin bord c'est n'est pas ne n' j'aime peu refais
    encore orange bonjour salut parfait super cool design voilà voila d'accord dessus
    plutôt autrement chaud chaude froid froide
  `,
  es: `
    dos tres cuatro cinco dame danos igual usa utiliza variante variantes vertical horizontal deshaz
    escribe escribir coloca gato perro caballo pájaro hombre mujer niño niña casa árbol flor flores ciudad
    mar playa montaña bosque coche carro gente cara ojos pelo primera primero segunda segundo tercera mejor
    verano invierno primavera otoño fiesta cumpleaños concierto película cortado demasiado hazme convierte
    el la los las un una unos unas lo y o pero que de del en con sin por para a al es son está están esta
    este esto estos estas ese esa eso aquí ahí allí yo tú tu él ella nosotros usted ustedes me te se le les
    nos mi mis su sus muy más menos también ya ahora luego después otra otro otras otros vez sí no gracias
    favor bien bueno buena hola todo toda todos nuevo nueva mismo misma hazlo haz hace hacer hazla ponle
    pon cambia cambiar cámbialo añade añadir agrega agregar quita quitar elimina crea crear genera dibuja
    prueba intenta muestra quiero quisiera puedes podrías necesito cartel carteles póster imagen imágenes
    color colores fondo fuente letra texto título azul rojo roja verde amarillo amarilla negro negra
    blanco blanca gris rosa morado naranja claro clara oscuro oscura brillante grande pequeño pequeña
    arriba abajo izquierda derecha centro cielo sol noche esquina borde versión estilo diseño perfecto
    genial vale pero cómo qué dónde cuándo por qué algo poco ahora mejor peor cálido cálida frío fría
    ponlo ponla déjalo hagamos
  `,
  it: `
    due tre quattro cinque dammi uguale usa utilizza variante varianti verticale orizzontale annulla
    scrivi gatto cane cavallo uccello uomo donna bambino bambina casa albero fiore fiori città mare spiaggia
    montagna bosco macchina gente viso occhi capelli prima primo seconda secondo terza meglio migliore estate
    inverno primavera autunno festa compleanno concerto film tagliato troppo trasforma
    il lo la i gli le un uno una un' e ed o ma che di del della dello dei delle a al alla da dal dalla in
    nel nella con su sul sulla per tra fra è sono sei siamo ho hai ha abbiamo fare fai fa fammi puoi
    potresti voglio vorrei io tu lui lei noi voi loro mi ti ci si mio mia tuo tua questo questa quello
    quella non sì grazie prego ancora anche più meno molto poco adesso ora poi già tutto tutti tutta altro
    altra nuovo nuova stesso stessa qui qua là sopra sotto sinistra destra immagine immagini colore colori
    sfondo testo titolo carattere manifesto locandina blu rosso rossa verde giallo gialla nero nera
    bianco bianca grigio rosa viola chiaro chiara scuro scura luminoso luminosa grande piccolo piccola
    aggiungi togli rimuovi cambia metti rendi crea genera disegna prova mostra versione stile cielo sole
    notte angolo bordo l' dell' nell' all' dall' sull' quest' c' perfetto bello bella ciao come
  `,
  nl: `
    twee drie vier vijf gebruik hetzelfde variant varianten verticaal horizontaal
    schrijf kat hond paard vogel man vrouw kind huis boom bloem bloemen stad zee strand berg bos auto mensen
    gezicht ogen haar eerste tweede derde beter leuk goed prima zomer winter lente herfst feest verjaardag
    concert film te
    de het een en of maar dat die dit deze is zijn was ben bent heb hebt heeft hebben kan kun kunt kunnen
    wil wilt zou moet ik jij je hij zij ze wij we jullie mij me mijn jouw jou ons onze van voor met op aan
    in uit naar bij om over onder tot door niet geen ja nee graag dank bedankt alsjeblieft alstublieft nog
    nu dan ook al wat wie waar hoe waarom wanneer meer minder heel erg veel beetje keer nieuw nieuwe andere
    zelfde hier daar boven links rechts maak maken verander voeg toe verwijder zet geef laat probeer
    afbeelding plaatje kleur kleuren achtergrond lettertype tekst titel affiche blauw blauwer rood roder
    groen groener geel zwart wit grijs roze paars oranje licht lichter donker donkerder groter kleiner
    versie stijl lucht zon nacht poster design er mooi mooier
  `,
  pt: `
    dois três quatro cinco dá igual usa utilize variante variantes vertical horizontal desfaz
    escreve escreva gato cachorro cão cavalo pássaro homem mulher criança casa árvore flor flores cidade mar
    praia montanha floresta carro gente rosto olhos cabelo primeira primeiro segunda segundo terceira melhor
    verão inverno primavera outono festa aniversário show cortado demais transforma
    o a os as um uma uns umas e ou mas que de do da dos das em no na nos nas com sem por pelo pela para pra
    ao à é são está estão ser estar tem têm ter faz fazer faça deixa deixe pode podes poderia quero queria
    eu você voce tu ele ela nós vocês eles elas me te se lhe meu minha seu sua este esta isto esse essa
    isso aquele aqui ali lá não sim obrigado obrigada favor muito mais menos também já agora depois ainda
    outra outro vez novo nova mesmo tudo todos cima baixo esquerda direita centro cartaz pôster imagem
    imagens cor cores fundo fonte texto título azul vermelho vermelha verde amarelo amarela preto preta
    branco branca cinza rosa roxo laranja claro clara escuro escura brilhante grande pequeno pequena maior
    menor adiciona adicione coloca coloque remove remova tira muda mude troca cria crie gera gere desenha
    tenta mostra versão estilo céu sol noite canto borda olá oi
  `,
};

type Weights = Partial<Record<LatinLanguage | 'other', number>>;
const bucketOf = (k: LatinLanguage | 'other'): number => (k === 'other' ? OTHER : idx(k));

/** Words whose languages are not equally likely: explicit weights instead of 1/k. */
const SKEWED: Record<string, Weights> = {
  o: { pt: 0.6, es: 0.2, it: 0.2 }, // the Portuguese article; "or" in Spanish and Italian
};

type Entry = ReadonlyArray<readonly [bucket: number, weight: number]>;

/** word → (bucket, weight): a word listed for k languages gives 1/k to each. */
const LEXICON: ReadonlyMap<string, Entry> = (() => {
  const langs = new Map<string, number[]>();
  for (const lang of LATIN) {
    for (const raw of WORDS[lang].split(/\s+/)) {
      const w = raw.normalize('NFC').toLowerCase();
      if (!w) continue;
      const list = langs.get(w) ?? [];
      if (!list.includes(idx(lang))) list.push(idx(lang));
      langs.set(w, list);
    }
  }
  const m = new Map<string, Entry>();
  for (const [w, list] of langs) m.set(w, list.map((b) => [b, 1 / list.length] as const));
  for (const [w, weights] of Object.entries(SKEWED)) {
    m.set(w, Object.entries(weights).map(([k, v]) => [bucketOf(k as keyof Weights), v] as const));
  }
  return m;
})();

/** Letters of unknown words: per word, each language takes the maximum over its letters. */
const LETTERS: ReadonlyMap<string, Weights> = new Map<string, Weights>([
  ['ß', { de: 1 }],
  ['ä', { de: 0.6 }],
  ['ö', { de: 0.6 }],
  ['ü', { de: 0.6 }],
  ['ñ', { es: 1 }],
  ['ã', { pt: 1 }],
  ['õ', { pt: 1 }],
  ['ç', { fr: 0.5, pt: 0.5 }],
  ['é', { fr: 0.35, es: 0.2, pt: 0.2, it: 0.1 }],
  ['è', { fr: 0.5, it: 0.3 }],
  ['ê', { fr: 0.5, pt: 0.4 }],
  ['â', { fr: 0.5, pt: 0.4 }],
  ['ô', { fr: 0.5, pt: 0.4 }],
  ['î', { fr: 0.7 }],
  ['ï', { fr: 0.6, nl: 0.3 }],
  ['û', { fr: 0.7 }],
  ['ë', { fr: 0.3, nl: 0.4 }],
  ['à', { fr: 0.3, it: 0.3, pt: 0.2 }],
  ['ù', { fr: 0.4, it: 0.3 }],
  ['ì', { it: 0.7 }],
  ['ò', { it: 0.7 }],
  ['á', { es: 0.5, pt: 0.5 }],
  ['í', { es: 0.5, pt: 0.4, it: 0.1 }],
  ['ó', { es: 0.5, pt: 0.4, it: 0.1 }],
  ['ú', { es: 0.5, pt: 0.4 }],
  ...[...'åøæłśźżąęčřšžőűşğıðþășțđ'].map((c): [string, Weights] => [c, { other: 1 }]),
]);

/** Spelling patterns of unknown words (length ≥ 3). */
const PATTERNS: ReadonlyArray<readonly [RegExp, Weights]> = [
  [/sch/, { de: 0.3, nl: 0.2 }],
  [/(?:ung|ungen|keit|heit|schaft|chen)$/, { de: 0.5 }],
  [/lich$/, { de: 0.4 }],
  [/tz|pf/, { de: 0.3 }],
  [/ing$|ings$/, { en: 0.5 }],
  [/ght/, { en: 0.5 }],
  [/^th|th$/, { en: 0.4 }],
  [/(?:ness|ful|less|ous)$/, { en: 0.4 }],
  [/ly$/, { en: 0.3 }],
  [/w/, { en: 0.15, de: 0.1, nl: 0.1 }],
  [/tions?$/, { en: 0.25, fr: 0.25 }],
  [/(?:eau|eaux|aux)$/, { fr: 0.5 }],
  [/(?:eux|euse|euses)$/, { fr: 0.5 }],
  [/ez$/, { fr: 0.3 }],
  [/oi|ou/, { fr: 0.15 }],
  [/(?:ción|ciones|sión|siones)$/, { es: 0.7 }],
  [/(?:dad|dades)$/, { es: 0.5 }],
  [/(?:ito|ita|itos|itas)$/, { es: 0.3 }],
  [/(?:ado|ada|ados|adas)$/, { es: 0.2, pt: 0.2 }],
  [/ll[oa]s?$/, { es: 0.3, it: 0.1 }],
  [/(?:zione|zioni)$/, { it: 0.7 }],
  [/gli|gn|cch|ggi|zz/, { it: 0.3 }],
  [/(?:etto|etta|ino|ina)$/, { it: 0.2 }],
  [/mente$/, { es: 0.2, it: 0.2, pt: 0.2 }],
  [/(?:ção|ções|são|sões)$/, { pt: 0.8 }],
  [/nh|lh/, { pt: 0.4 }],
  [/(?:agem|agens)$/, { pt: 0.4 }],
  [/ij/, { nl: 0.6 }],
  [/aa|uu/, { nl: 0.4 }],
  [/oe/, { nl: 0.2 }],
  [/(?:heid|lijk|tje|tjes)$/, { nl: 0.6 }],
];

const UNKNOWN_WORD_CAP = 0.8;
const EN_CLITIC = /^(?:s|t|re|ll|ve|d|m)$/;

function addWeights(into: Float64Array, w: Weights): void {
  for (const k in w) {
    const v = w[k as keyof Weights];
    if (v !== undefined) into[bucketOf(k as keyof Weights)]! += v;
  }
}

function addLexical(scores: Float64Array, entry: Entry): void {
  for (const [b, w] of entry) scores[b]! += w;
}

/**
 * Adds the evidence of one lower-cased Latin word to `scores` (`tmp` is scratch space); returns
 * whether the word (or part of it) is in a lexicon.
 */
function scoreWord(word: string, scores: Float64Array, tmp: Float64Array): boolean {
  const known = LEXICON.get(word);
  if (known) {
    addLexical(scores, known);
    return true;
  }
  const apos = word.indexOf("'");
  if (apos >= 0) {
    const head = word.slice(0, apos + 1);
    const tail = word.slice(apos + 1);
    const elided = LEXICON.get(head);
    if (elided) {
      addLexical(scores, elided); // l'affiche, d'un, dell'immagine
      if (tail) scoreWord(tail, scores, tmp);
      return true;
    }
    if (EN_CLITIC.test(tail)) {
      scores[idx('en')]! += 0.8; // Nike's, logo's, they'd
      scoreWord(word.slice(0, apos), scores, tmp);
      return true;
    }
    const a = scoreWord(word.slice(0, apos), scores, tmp);
    const b = tail ? scoreWord(tail, scores, tmp) : false;
    return a || b;
  }
  if (word.length < 2) return false;
  // Unknown word: characteristic letters (max per language) plus spelling patterns, capped.
  tmp.fill(0);
  for (const ch of word) {
    const w = LETTERS.get(ch);
    if (!w) continue;
    for (const k in w) {
      const v = w[k as keyof Weights] ?? 0;
      const b = bucketOf(k as keyof Weights);
      if (v > tmp[b]!) tmp[b] = v;
    }
  }
  if (word.length >= 3) for (const [re, w] of PATTERNS) if (re.test(word)) addWeights(tmp, w);
  for (let b = 0; b < BUCKETS; b++) scores[b]! += Math.min(tmp[b]!, UNKNOWN_WORD_CAP);
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Cleaning: keep the user's own prose only

const CODE_BLOCK = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
const URL = /\b(?:https?:\/\/|ftp:\/\/|www\.)\S+/gi;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
const MENTION = /(?<![\p{L}\p{N}])@[\p{L}\p{N}_.-]+/gu;
const TAG = /#[\p{L}\p{N}_-]+/gu;
const FILE = /[\p{L}\p{N}_-]+\.(?:png|jpe?g|gif|svg|webp|pdf|psd|ai|tiff?|mp[34]|mov|heic|avif|eps|json|tsx?|jsx?|css|html?|txt|md|zip|glb|gltf|obj|fbx|blend|wav)\b/giu;
const QUOTED =
  /"[^"\n]*"|“[^”\n]*”|„[^“”\n]*[“”]|«[^»\n]*»|»[^«\n]*«|「[^」\n]*」|『[^』\n]*』|(?<![\p{L}\p{N}])['‘][^'’‘\n]*['’](?![\p{L}\p{N}])/gu;
const CODE_TOKEN = /\S*[{}<>=$\\|]\S*|\S*\/\S*(?:\/|\.\w)\S*|[\p{L}\p{N}]+_[\p{L}\p{N}_]+|\b\p{Ll}+\p{Lu}[\p{L}\p{N}]*/gu;
const DIGIT_TOKEN = /[\p{Script=Latin}\p{N}]*\p{N}[\p{Script=Latin}\p{N}]*/gu;
const ACRONYM = /(?<![\p{L}\p{M}'’])\p{Lu}{2,}(?![\p{L}\p{M}'’])/gu;
const HAS_LOWER = /\p{Ll}/u;
const HAS_LETTER = /\p{L}/u;
const HAS_DIGIT = /\p{N}/u;

const QUOTE_CHARS = /["“„«»「『'‘]/;
const CODE_CHARS = /[{}<>=$\\|/_]|\p{Ll}\p{Lu}/u;

function clean(text: string): string {
  // Each pass runs only when its trigger character is present: most messages skip most of them.
  let t = text.normalize('NFC');
  if (t.includes('`')) t = t.replace(CODE_BLOCK, ' ');
  if (t.includes('://') || t.includes('www.')) t = t.replace(URL, ' ');
  if (t.includes('@')) t = t.replace(EMAIL, ' ').replace(MENTION, ' ');
  if (t.includes('.')) t = t.replace(FILE, ' ');
  if (t.includes('#')) t = t.replace(TAG, ' ');
  if (QUOTE_CHARS.test(t)) {
    const unquoted = t.replace(QUOTED, ' ');
    // Everything quoted (a pasted instruction, say): the quote is all we have.
    if (HAS_LETTER.test(unquoted) || !HAS_LETTER.test(t)) t = unquoted;
  }
  if (CODE_CHARS.test(t)) t = t.replace(CODE_TOKEN, ' ');
  if (HAS_DIGIT.test(t)) t = t.replace(DIGIT_TOKEN, ' ');
  t = t.replace(/[’‘`´]/g, "'");
  if (HAS_LOWER.test(t)) t = t.replace(ACRONYM, ' ');
  return t;
}

// ---------------------------------------------------------------------------------------------------
// Scripts

// Kanji in their Japanese (shinjitai / kokuji) forms, which Chinese writes differently.
const JA_ONLY_KANJI = new Set([...'図絵気変黒緑様込売広円拡転沢辺楽読単関駅続縦隠覚発験済戦対伝脳訳薬覧両歴労録枠']);
// Simplified (and a few traditional) Chinese forms that Japanese does not use.
const ZH_ONLY_HAN = new Set([
  ...'这张个们为图吗么请让给换点颜变红绿蓝说没还会对发开关实现样边过进远几风头广长爱乐节页东车书动门问间时无',
  ...'這們為圖嗎麼請讓給換點顏變綠藍說沒還會對發開關實現樣邊過進遠幾廣樂節頁',
]);
const UKRAINIAN_ETC = /[іїєґўђјљњћџѓќѕІЇЄҐЎЂЈЉЊЋЏЃЌЅ]/u;

const enum Script {
  None,
  Latin,
  Cyrillic,
  Han,
  Kana,
  Hangul,
  Other,
}

function scriptOf(cp: number): Script {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ? Script.Latin : Script.None;
  if ((cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7) || (cp >= 0x1e00 && cp <= 0x1eff)) return Script.Latin;
  if (cp >= 0x400 && cp <= 0x4ff) return Script.Cyrillic;
  if ((cp >= 0x3040 && cp <= 0x30ff && cp !== 0x30fb) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f)) return Script.Kana;
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x2ffff) || cp === 0x3005) return Script.Han;
  if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return Script.Hangul;
  if (cp === 0x2019 || cp === 0x27 || cp === 0x2d) return Script.None;
  return OTHER_LETTER.test(String.fromCodePoint(cp)) ? Script.Other : Script.None;
}
const OTHER_LETTER = /\p{L}/u;

interface ScriptCounts {
  latinWords: number;
  cyrillicWords: number;
  cyrillicLetters: number;
  otherWords: number;
  han: number;
  kana: number;
  hangul: number;
  jaKanji: number;
  zhHan: number;
}

function countScripts(t: string): ScriptCounts {
  const c: ScriptCounts = { latinWords: 0, cyrillicWords: 0, cyrillicLetters: 0, otherWords: 0, han: 0, kana: 0, hangul: 0, jaKanji: 0, zhHan: 0 };
  let prev = Script.None;
  for (const ch of t) {
    const cp = ch.codePointAt(0)!;
    // Apostrophes and hyphens inside a word do not split it; combining marks belong to their letter.
    if (cp === 0x27 || cp === 0x2d || (cp >= 0x300 && cp <= 0x36f)) continue;
    const s = scriptOf(cp);
    switch (s) {
      case Script.Latin:
        if (prev !== s) c.latinWords++;
        break;
      case Script.Cyrillic:
        if (prev !== s) c.cyrillicWords++;
        c.cyrillicLetters++;
        break;
      case Script.Other:
        if (prev !== s) c.otherWords++;
        break;
      case Script.Han:
        c.han++;
        if (JA_ONLY_KANJI.has(ch)) c.jaKanji++;
        else if (ZH_ONLY_HAN.has(ch)) c.zhHan++;
        break;
      case Script.Kana:
        c.kana++;
        break;
      case Script.Hangul:
        c.hangul++;
        break;
      case Script.None:
        break;
    }
    prev = s;
  }
  return c;
}

/** 1 - e^(-x/k): how much `x` units of evidence are worth, saturating towards 1. */
const saturate = (x: number, k: number): number => 1 - Math.exp(-x / k);
const round = (x: number): number => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
const UND: LanguageDetection = Object.freeze({ language: 'und', confidence: 0 });

// ---------------------------------------------------------------------------------------------------
// Detection

const LATIN_WORD = /[\p{Script=Latin}\p{M}]+(?:'[\p{Script=Latin}\p{M}]*)*/gu;
const MIN_LATIN_SCORE = 0.5;
const MIN_MARGIN = 0.1;
const MIN_COVERAGE = 0.3;

function detectLatin(t: string, purity: number): LanguageDetection {
  const scores = new Float64Array(BUCKETS);
  const tmp = new Float64Array(BUCKETS);
  let words = 0;
  let known = 0;
  for (const m of t.matchAll(LATIN_WORD)) {
    const w = m[0].toLowerCase().replace(/^'+|'+$/g, '');
    if (!w) continue;
    words++;
    if (scoreWord(w, scores, tmp)) known++;
  }
  // Real sentences in a supported language always hit the function-word lists; a sentence of
  // unknown words is another language (Polish, Turkish, Swedish …) or names only.
  const coverage = words ? known / words : 0;
  if (words >= 3 && coverage < MIN_COVERAGE) return UND;
  const inverted = (t.match(/[¿¡]/g)?.length ?? 0) > 0;
  if (inverted) scores[idx('es')]! += 1;

  let best = 0;
  let second = -1;
  for (let b = 1; b < BUCKETS; b++) {
    if (scores[b]! > scores[best]!) {
      second = best;
      best = b;
    } else if (second < 0 || scores[b]! > scores[second]!) second = b;
  }
  const s1 = scores[best]!;
  const s2 = second >= 0 ? scores[second]! : 0;
  if (s1 < MIN_LATIN_SCORE || best === OTHER) return UND;
  const margin = (s1 - s2) / s1;
  if (margin < MIN_MARGIN) return UND;
  const coverageFactor = Math.min(1, 0.5 + coverage);
  return { language: LATIN[best]!, confidence: round(margin * saturate(s1, 1.5) * purity * coverageFactor) };
}

/**
 * The language of a short chat message. Pure and deterministic. 'und' (confidence 0) when there is
 * no usable evidence: empty, emoji, numbers, acronyms, "ok", a tie, or a language we do not support.
 */
export function detectLanguage(text: string): LanguageDetection {
  if (!text) return UND;
  const t = clean(text);
  const c = countScripts(t);
  // Rough "words" per script: Chinese words are ~1.5 characters, Japanese kana runs and Korean words
  // longer; Latin, Cyrillic and other alphabets count whitespace-separated runs.
  const cjkUnits = c.han / 1.5 + c.kana / 2.5;
  const hangulUnits = c.hangul / 2.5;
  const total = cjkUnits + hangulUnits + c.latinWords + c.cyrillicWords + c.otherWords;
  if (total === 0) return UND;

  const dominant = Math.max(cjkUnits, hangulUnits, c.latinWords, c.cyrillicWords, c.otherWords);
  const purity = dominant / total;
  if (cjkUnits === dominant) {
    const n = c.han + c.kana;
    const japanese = c.kana >= 2 || c.kana / n >= 0.3 || (c.kana === 0 && c.jaKanji > c.zhHan);
    return { language: japanese ? 'ja' : 'zh', confidence: round(purity * saturate(n, 2.5)) };
  }
  if (hangulUnits === dominant) return { language: 'ko', confidence: round(purity * saturate(c.hangul, 2.5)) };
  if (c.latinWords === dominant) return detectLatin(t, purity);
  if (c.cyrillicWords === dominant) {
    // Ukrainian, Belarusian, Serbian, Macedonian: not Russian, and not supported.
    if (UKRAINIAN_ETC.test(t)) return UND;
    return { language: 'ru', confidence: round(purity * saturate(c.cyrillicLetters, 4)) };
  }
  return UND; // Greek, Arabic, Hebrew, Thai, Devanagari …
}

/**
 * The language a task should use after a new user message: switch only on a confident detection of
 * a different language; otherwise keep `current`. With no current language, any detection is taken
 * (weak evidence beats none); 'und' never replaces a language.
 */
export function nextTaskLanguage(current: LanguageCode | null, message: string, minConfidence: number = DEFAULT_SWITCH_CONFIDENCE): LanguageCode {
  const d = detectLanguage(message);
  if (d.language === 'und') return current ?? 'und';
  if (current === null || current === 'und') return d.language;
  return d.language !== current && d.confidence >= minConfidence ? d.language : current;
}
