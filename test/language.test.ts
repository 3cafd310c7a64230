// Language detection for short chat messages: a labelled set (must be 100% right), determinism, and
// how a task's language follows the user (`nextTaskLanguage`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectLanguage, LANGUAGE_NAMES, nextTaskLanguage, type LanguageCode } from '../server/domain/language.ts';

const LABELLED: ReadonlyArray<readonly [string, LanguageCode]> = [
  // English
  ['make that poster blue', 'en'],
  ['now in blue', 'en'],
  ['Can you make the background a bit darker?', 'en'],
  ['Add a sunset behind the mountains and make the sky more orange', 'en'],
  ['try another version with a bigger headline', 'en'],
  ['Remove the text from the top left corner please', 'en'],
  ["I don't like the font, use something bolder", 'en'],
  ['looks great, thanks!', 'en'],
  ['Generate a logo for my coffee shop called "Bean There"', 'en'],
  ['can you export it as PNG at 4k? https://example.com/brief.pdf', 'en'],
  ['@maria what do you think of v2?', 'en'],
  ["It's too busy, keep only the cat and the moon", 'en'],
  // German
  ['Mach das Plakat blauer', 'de'],
  ['und jetzt in blau', 'de'],
  ['Kannst du den Hintergrund etwas heller machen?', 'de'],
  ['Bitte entferne den Text oben links', 'de'],
  ['Noch eine Variante mit größerer Schrift, bitte', 'de'],
  ['Das gefällt mir nicht, die Farben sind zu grell', 'de'],
  ['Erstelle ein Bild von einer Katze auf dem Mond', 'de'],
  ['Mach es wärmer und füge eine Sonne hinzu', 'de'],
  ['Sieht super aus, danke!', 'de'],
  ['Schrift größer', 'de'],
  ['Mach das Logo für "Summer Vibes" etwas größer', 'de'],
  ['Mach das Bild bitte etwas heller, like a sunset vibe', 'de'], // mixed, German dominant
  // English dominant with German words
  ['Can you make the Plakat a bit more blau?', 'en'],
  ['Please make the background more like the Sommerfest poster', 'en'],
  // French
  ["Rends l'affiche plus lumineuse", 'fr'],
  ['Change la couleur du fond en bleu, s’il te plaît', 'fr'],
  ['Ajoute un soleil dans le coin en haut à droite', 'fr'],
  ["Je n'aime pas la police, essaie autre chose", 'fr'],
  ['Encore une version, mais plus sombre', 'fr'],
  ['merci, c’est parfait', 'fr'],
  ['Peux-tu agrandir le titre ?', 'fr'],
  // Spanish
  ['Haz el cartel más azul', 'es'],
  ['¿Puedes cambiar el fondo a rojo?', 'es'],
  ['Quita el texto de la esquina, por favor', 'es'],
  ['Otra versión con letras más grandes', 'es'],
  ['Me gusta, pero el cielo debería ser más oscuro', 'es'],
  ['¡Perfecto, gracias!', 'es'],
  ['Ahora en verde', 'es'],
  // Italian, Dutch, Portuguese (Latin-script neighbours that must not be confused)
  ["Rendi l'immagine più luminosa, per favore", 'it'],
  ['Maak de achtergrond wat lichter', 'nl'],
  ['Deixa o cartaz mais azul, por favor', 'pt'],
  ['Não gostei da fonte, tenta outra', 'pt'],
  // Chinese
  ['把那张海报改成蓝色', 'zh'],
  ['再来一张', 'zh'],
  ['背景再亮一点', 'zh'],
  ['帮我设计一个咖啡店的logo', 'zh'],
  ['字体太小了，放大一些', 'zh'],
  ['把 poster 的颜色改成红色，谢谢', 'zh'],
  ['這張圖的背景換成藍色', 'zh'], // traditional
  ['用 Midjourney 的风格再生成一次', 'zh'],
  // Japanese
  ['この画像をもっと明るくして', 'ja'],
  ['背景を青にしてください', 'ja'],
  ['ポスターの文字を大きくして', 'ja'],
  ['もう一枚お願いします', 'ja'],
  ['いいですね！', 'ja'],
  ['このポスターを blue にして', 'ja'],
  ['ロゴに「Summer Sale」と書いて', 'ja'],
  // Korean
  ['포스터를 더 파랗게 해줘', 'ko'],
  ['배경을 조금 더 밝게 만들어 주세요', 'ko'],
  ['하나 더', 'ko'],
  ['로고를 PNG로 저장해줘', 'ko'],
  ['좋아요 감사합니다', 'ko'],
  // Russian
  ['Сделай постер синим', 'ru'],
  ['Добавь солнце в правый верхний угол', 'ru'],
  ['ещё раз, но темнее', 'ru'],
  ['Сделай логотип для Nike в синем цвете', 'ru'],
  ['Спасибо, отлично!', 'ru'],
  // Undetermined: too short, no words, or not a supported language
  ['ok', 'und'],
  ['OK', 'und'],
  ['👍', 'und'],
  ['👍👍🔥', 'und'],
  ['v2', 'und'],
  ['PNG', 'und'],
  ['', 'und'],
  ['   ', 'und'],
  ['???', 'und'],
  ['1920x1080', 'und'],
  ['#ff0000', 'und'],
  ['https://example.com/ref.png', 'und'],
  ['@lena', 'und'],
  ['"Nebula Coffee"', 'und'],
  ['```const x = 1;```', 'und'],
  ['poster', 'und'],
  ['ja', 'und'],
  ['no', 'und'],
  ['Zrób plakat bardziej niebieski, proszę', 'und'], // Polish
  ['Зроби постер синім, будь ласка', 'und'], // Ukrainian
  ['Κάνε την αφίσα πιο μπλε', 'und'], // Greek
];

describe('detectLanguage', () => {
  test(`labelled set: ${LABELLED.length} messages, 100% right`, () => {
    assert.ok(LABELLED.length >= 60);
    const wrong = LABELLED.flatMap(([text, expected]) => {
      const d = detectLanguage(text);
      return d.language === expected ? [] : [`${JSON.stringify(text)}: expected ${expected}, got ${d.language} (${d.confidence})`];
    });
    assert.deepEqual(wrong, []);
  });

  test('covers every language of the brief', () => {
    const langs = new Set(LABELLED.map(([, l]) => l));
    for (const l of ['en', 'de', 'zh', 'ja', 'fr', 'es', 'ko', 'ru', 'und'] as const) assert.ok(langs.has(l), l);
  });

  test('confidence is in 0..1, 0 for und, high for clear sentences, low for one-word follow-ups', () => {
    for (const [text] of LABELLED) {
      const { language, confidence } = detectLanguage(text);
      assert.ok(confidence >= 0 && confidence <= 1, text);
      if (language === 'und') assert.equal(confidence, 0, text);
    }
    for (const clear of ['Mach das Plakat blauer', 'make that poster blue', '把那张海报改成蓝色', 'この画像をもっと明るくして', '포스터를 더 파랗게 해줘', 'Сделай постер синим', "Rends l'affiche plus lumineuse", 'Haz el cartel más azul']) {
      assert.ok(detectLanguage(clear).confidence >= 0.7, `${clear}: ${detectLanguage(clear).confidence}`);
    }
    for (const weak of ['thanks', 'bitte', 'blau', '好']) {
      const d = detectLanguage(weak);
      assert.ok(d.confidence < 0.5, `${weak}: ${d.language} ${d.confidence}`);
    }
  });

  test('more evidence and a wider margin give more confidence', () => {
    const short = detectLanguage('und jetzt in blau').confidence;
    const long = detectLanguage('Kannst du den Hintergrund bitte etwas heller machen und die Schrift größer?').confidence;
    assert.ok(long > short, `${long} > ${short}`);
    const pure = detectLanguage('Mach das Bild bitte etwas heller').confidence;
    const mixed = detectLanguage('Mach das Bild bitte etwas heller, like a sunset vibe').confidence;
    assert.ok(pure > mixed, `${pure} > ${mixed}`);
  });

  test('ignores URLs, mentions, numbers, emoji, code and quoted names', () => {
    assert.equal(detectLanguage('Mach das Plakat blauer https://example.com/the/best/english/page 👍').language, 'de');
    assert.equal(detectLanguage('@john_smith bitte mach das Bild heller').language, 'de');
    assert.equal(detectLanguage('Schreib "Make America Read Again" auf das Plakat').language, 'de');
    assert.equal(detectLanguage('Ändere `backgroundColor: "white"` auf blau bitte').language, 'de');
    assert.deepEqual(detectLanguage('make it 2x bigger 🚀🚀'), detectLanguage('make it bigger'));
  });

  test('deterministic', () => {
    for (const [text] of LABELLED) {
      const first = detectLanguage(text);
      for (let i = 0; i < 3; i++) assert.deepEqual(detectLanguage(text), first);
    }
  });
});

describe('nextTaskLanguage', () => {
  test('the first message sets the language', () => {
    assert.equal(nextTaskLanguage(null, 'make that poster blue'), 'en');
    assert.equal(nextTaskLanguage(null, 'Mach das Plakat blauer'), 'de');
    assert.equal(nextTaskLanguage(null, '把那张海报改成蓝色'), 'zh');
    assert.equal(nextTaskLanguage(null, '👍'), 'und');
    assert.equal(nextTaskLanguage('und', 'bitte'), 'de'); // nothing to keep: weak evidence beats none
  });

  test('keeps the task language on und or low-confidence input', () => {
    for (const current of ['de', 'en', 'ja', 'fr'] as const) {
      for (const msg of ['ok', '👍', 'v2', 'PNG', 'OK!', '', 'poster', 'thanks', 'bitte', 'no', '好', '#00ff00']) {
        assert.equal(nextTaskLanguage(current, msg), current, `${current} + ${JSON.stringify(msg)}`);
      }
    }
  });

  test('switches on a clear message in another language, follows the user through a conversation', () => {
    let lang: LanguageCode | null = null;
    const steps: Array<[string, LanguageCode]> = [
      ['make a poster for a jazz night', 'en'],
      ['ok', 'en'],
      ['now in blue', 'en'],
      ['👍', 'en'],
      ['Mach das Plakat bitte blauer und die Schrift größer', 'de'],
      ['ok', 'de'],
      ['und jetzt in blau', 'de'],
      ['PNG', 'de'],
      ['thanks', 'de'], // one weak word does not switch
      ['再来一张', 'zh'],
      ['v2', 'zh'],
    ];
    for (const [msg, expected] of steps) {
      lang = nextTaskLanguage(lang, msg);
      assert.equal(lang, expected, `after ${JSON.stringify(msg)}`);
    }
  });

  test('minConfidence is honoured', () => {
    assert.equal(nextTaskLanguage('en', 'und jetzt in blau', 0.99), 'en');
    assert.equal(nextTaskLanguage('en', 'und jetzt in blau', 0.1), 'de');
    assert.equal(nextTaskLanguage('de', 'thanks', 0.1), 'en');
  });

  test('language names for prompts', () => {
    assert.equal(`Reply in ${LANGUAGE_NAMES.de}.`, 'Reply in German.');
    assert.equal(LANGUAGE_NAMES.zh, 'Chinese');
    assert.equal(LANGUAGE_NAMES.ja, 'Japanese');
  });
});
