// The words that say what a message is, in EN, DE, FR, ES, ZH and JA: greetings, thanks, casual
// signals for a task (stop, pause, resume), status questions, lasting facts, quick one-offs and
// next editions. Every pattern applies to the normalized text (text.ts normalize: lower case,
// Latin diacritics folded, punctuation as spaces — "where's" is "where s", "ça" is "ca").
//
// These lists are written from the languages, not from evaluation cases: never add the exact
// words of a held-out case (test/eval/routing-heldout*.json) to fix it.

export const GREETING =
  /^(hi|hey|heya|hiya|hello|howdy|yo|morning|good (morning|afternoon|evening|day)|evening|greetings|hallo|servus|moin( moin)?|gruss gott|gruezi|guten (morgen|tag|abend)|na( du| ihr)?( alles (klar|gut|fit))?|bonjour|salut|bonsoir|coucou|hola|buenas( tardes| noches)?|buenos dias|ciao|ola|bom dia)\b|^(你好|您好|嗨|哈喽|哈啰|早上好|下午好|晚上好|大家好|早安|早啊|早$|こんにちは|こんばんは|おはよう|お疲れ|おつかれ|どうも|안녕)/u;

export const SMALL_TALK = /\b(how are you|how s it going|what s up|wie geht s|wie gehts|alles klar|ca va|comment vas tu|que tal|como estas|como va todo)\b|(最近怎么样|你好吗|元気|調子どう)/u;

export const THANKS =
  /^(thanks|thank you|thx|ty|cheers|much appreciated|danke|vielen dank|dankeschon|merci|gracias|muchas gracias|grazie|obrigad[oa])\b|(谢谢|多谢|感谢|辛苦了|ありがとう|助かりました|감사)/u;

/** Stop for good: the task is cancelled. ("stop" is a cancel: pausing says so.) */
export const CANCEL =
  /\b(stop(?! motion)|stopp|stoppe|stoppen|cancel|kill|scrap|abort|ditch|call off|forget about|never mind|nevermind|abbrechen|brich|brecht|storniere|stornieren|streich|arrete|arreter|stoppe|annule|annuler|laisse tomber|abandonne|abandonner|cancela|cancelar|anula|anular|deten|olvidate|deja de hacer)\b|停掉|停止|停了吧|取消|别做了|不做了|不用做了|不要做了|算了|叫停|止めて|やめて|中止|キャンセル|作らなくていい|ストップ/u;

/** Pause: stop for now, to go on later. */
export const PAUSE =
  /\b(pause|paused|pausing|hold off|on hold|put on ice|pausier\w*|anhalten|auf eis|ruhen lassen|erst ?mal liegen|en pause|suspend\w*|en attente|pausa|pausar|pon en pausa|en espera)\b|暂停|先停|先放一放|缓一缓|先搁置|一時停止|一旦ストップ|一旦止め|いったんストップ|保留|ちょっと止め/u;

/** Resume: go on with a paused or stopped task. */
export const RESUME =
  /\b(resume|unpause|pick (\w+ ){1,3}back up|pick up where|carry on|keep going|restart|weitermachen|mach weiter|macht weiter|fortsetzen|fortfahren|wieder aufnehmen|reprends|reprendre|reprenez|relance|retoma|retomar|retomemos|reanuda|reanudar|sigue con|seguimos con)\b|继续做|接着做|恢复|重新开始|再開|続けて/u;

/** A question about where a task stands (not a request, not a question about facts in it). */
export const STATUS =
  /\b(where s|where is|where are) .*\bat\b|\bhow s .*\b(going|coming|doing|looking)\b|\bhow (is|are) .*\b(going|coming|doing|looking)\b|\b(status|progress) (of|on|for)\b|\bany (news|update|updates) on\b|\bwhere (are we|did we land|do we stand) (with|on)\b|\bhow far (along )?(is|are)\b|^(is|are) .*\b(done|ready|finished|complete)\b|^(did|has|have) .*\b(finish|finished|go out|gone out|get done|ship|shipped|complete|completed|over)\b|\bwie weit (ist|sind|seid)\b|^was macht (das|die|der|unser|unsere)\b|\bwie steht s\b|\bwie sieht s .*\baus\b|\bder stand\b|\bstand (beim|bei|der|des)\b|^(ist|sind) .*\bfertig\b|\bschon fertig\b|\bou en (est|sont)\b|\bca en est ou\b|\bca avance\b|\best ce que .*\b(pret|fini|termine)\b|\bcomo (va|van|vamos)\b|\bque tal (va|van)\b|\ben que punto\b|\b(esta|estan) (listo|lista|listos|listas|terminad\w*)\b|\bya esta\b|做到哪|到哪一步|怎么样了|进度|进展如何|好了吗|好了没|完成了吗|做完了吗|做好了吗|弄好了吗|進捗|どこまで|どうなって|できましたか|終わりましたか|進んで|どんな感じ/u;

/** A lasting fact or rule for the whole workspace ("our brand colour is teal"). */
export const REMEMBER =
  /\b(remember that|remember our|please remember|keep in mind|note that|for future reference|fyi|just so you know|from now on|going forward|merk dir|merke dir|zur info|ab jetzt|ab sofort|kunftig|in zukunft|retiens|souviens toi|note bien|pour info|desormais|a partir de maintenant|a l avenir|recuerda que|ten en cuenta|para que lo sepas|a partir de ahora|de ahora en adelante)\b|\bour (brand |house |corporate |main |primary )?(colou?rs?|fonts?|typefaces?|logo|tagline|slogan|company name) (is|are)\b|\bwe always use\b|\bunser(e|en)? (marken|haus|firmen)?(farbe|farben|schrift|logo|slogan)\b.*\b(ist|sind)\b|\bnotre (couleur|police|typo|typographie|logo|slogan)\b.*\b(est|sont|doit)\b|\bnuestr[oa]s? (color|colores|tipografia|fuente|logo|eslogan)\b.*\b(es|son)\b|记住|记一下|以后都|以后一律|今后|我们的(品牌色|主色|主色调|字体|标志|口号|logo)是|覚えておいて|覚えといて|今後は|これからは|ブランドカラーは/u;

/** A quick, small one-off ("a quick icon"). */
export const QUICK =
  /\b(quick|quickly|real quick|just a|nothing fancy|one off|whip up|for fun|silly|funny|schnell|kurz|fix|mal eben|auf die schnelle|nur ein|vite|vite fait|rapide|rapidement|rapido|rapida|rapidito|sencill\w*)\b|快速|简单|随便|随手|顺手|快点|一个小|ちょっと|さっと|手早く|簡単な|軽く/u;

/** Things a one-off is made of. */
export const SMALL_ITEM =
  /\b(icon|icons|icone|icono|ikone|sticker|stickers|emoji|avatar|favicon|meme|placeholder|platzhalter\w*|gif|doodle|sketch|logo|pictogram|piktogramm|pegatina|autocollant|aufkleber|illustration|drawing|zeichnung|dessin|dibujo|ilustracion|picture|bildchen)\b|图标|贴纸|表情|头像|小图|插画|アイコン|スタンプ|ステッカー|イラスト|ロゴ/u;

/** Work of several parts or over time: never a one-off. */
export const PROJECT =
  /\b(series|campaign|project|storyboard|brand|branding|identity|multiple|several|set of|collection|launch|serie|reihe|kampagne|projekt|mehrere|marke|serie|campagne|projet|campana|proyecto|over the next|this week|these days)\b|(系列|项目|活动|品牌|多张|一套|整套|这几天|分镜|シリーズ|プロジェクト|一式)/u;

/** Next year's (or a named later year's) edition of earlier work. */
export const NEXT_EDITION =
  /\b(next year s?|next season|next edition|nachste[ns]? jahr|kommende[ns]? jahr|im nachsten jahr|l an prochain|l annee prochaine|prochaine edition|el ano que viene|el proximo ano|proxima edicion)\b|明年|下一届|下届|来年|次回/u;

/**
 * Words announcing a further piece of work rather than more of an existing one ("another", "a new
 * menu", "eine neue Speisekarte", "另外那款"). A bare "new" is not enough: new footage, new prices and
 * new photos are more of the same work.
 */
export const NEW_WORK =
  /\b(another|a new|new one|kick off|start (a|on|the)|as well|(also|too) (do|make|create|design|need|want) (a|an)|ein(e|en|er|es)? neue[nrs]?|noch ein(e|en)? (weitere[nrs]?|zweite[nrs]?)|ein(e|en)? weitere[nrs]?|un nouveau|une nouvelle|un nouvel|un autre|une autre|un nuevo|una nueva|otro|otra)\b|(新开|另外|另一|再来一|别的|別の|新規|もう一つ)/u;

/** "That one", "it": a reference to recent work without naming it. */
export const DEICTIC =
  /\b(that one|this one|that|this(?! time)|it|them|those|the last one|the other one|das|dies|diese[ns]?|den|die|dem|es|sie|letzte[ns]?|celui|celle|ca|ese|esa|eso)\b|(那个|这个|那张|这张|它|刚才|上一个|それ|これ|あれ|さっき)/u;

/**
 * A question about facts of the work or the workspace ("which typeface did we use on the
 * posters?", "remind me of the date on the poster"): answered by the main thread even when it names
 * a task, unless it asks for something to be made.
 */
export const FACT_QUESTION =
  /^(what|which|when|who|how many|how much|how long|wie viele|wie lange|welche[rsnm]?|wann|wer|quel(le)?s?|quand|combien|cual(es)?|cuando|cuanto|cuantos|cuantas|quien)\b|\b(remind me|erinnere mich|rappelle moi|recuerdame)\b|^(什么时候|多少|几|哪个|哪一|哪些)|(是哪|用的是|いつ|どれ|どの|何ページ|何色)/u;

/**
 * A question about what was decided or said in earlier work ("what did we settle on for the
 * posters?", "was haben wir … entschieden?", "qu'avons-nous décidé …?", "¿qué decidimos …?",
 * "上周我们定了什么？", "何を決めましたか？"): answered by the main thread from memory, like a fact question.
 */
export const EARLIER_QUESTION =
  /\b(settled on|decided on|agreed on|did we (decide|settle|agree|choose|pick|go with)|entschieden|beschlossen|vereinbart|festgelegt|ausgesucht|decide|decidee|choisi|convenu|retenu|decidimos|elegimos|acordamos|escogimos)\b|定了什么|决定了什么|選んだ|選びましたか|決めましたか|決めたの/u;

export const QUESTION_START =
  /^(?:what|how|which|when|where|why|who|is there|are there|do you|can you tell|could you tell|was|wie|welche|wann|wo|warum|wer|gibt es|kannst du mir sagen|qu est|quoi|comment|quel|combien|que|como|cual|什么|怎么|哪|为什么|有没有|多少|是不是|なに|何|どう|どれ|いつ)/u;

export const APP_QUESTION =
  /\b(what can you do|what can you make|how many|which tasks|what tasks|was kannst du|wie viele|welche aufgaben|que peux tu faire|que sais tu faire|que puedes hacer|que sabes hacer)\b|\bwhat\b.*\bcan you (do|make|create|draw|produce)\b|\bwas\b.*\bkannst du\b.*\b(machen|erstellen)\b|(你能做什么|能做什么|多少个|哪些任务|何ができ|何を作れ)/u;

/** A request to make or change something. */
export const CREATE_VERB =
  /\b(make|create|design|draw|generate|render|produce|build|write|draft|animate|film|edit|change|turn|compose|record|give me|i need|i want|let ?s|erstell|gestalt|mach|zeichne|entwirf|generier|schreib|ander|komponier|brauche|mochte|cree|fais|dessine|compose|crea|haz|hazme|disena|genera|compon)\w*/u;
export const CREATE_CJK = /(做|画|设计|生成|制作|创建|写|改|换|加|来一张|来个|帮我|给我|作曲|作って|描いて|作成|デザイン|変えて|して|にして|お願い)/u;

/**
 * The fixed words of the signal and status cues, taken out of a message before the task it names
 * is looked for (what is left is the name: "stop the PPT" → "the PPT").
 */
export const CUE_WORDS =
  /\b(stop|stopp|stoppe|stoppen|cancel|kill|scrap|abort|ditch|call off|forget about|never mind|abbrechen|brich|brecht|ab|storniere|stornieren|streich|arrete|arreter|annule|annuler|laisse tomber|abandonne|abandonner|cancela|cancelar|anula|anular|deten|olvidate|deja de hacer|pause|hold off|on hold|pausier\w*|anhalten|auf eis|erst ?mal|en pause|suspend\w*|en attente|pausa|pausar|pon en pausa|en espera|resume|unpause|pick|back up|carry on|keep going|restart|weitermachen|mach weiter|fortsetzen|fortfahren|wieder aufnehmen|reprends|reprendre|relance|retoma|retomar|reanuda|reanudar|sigue con|where s|where is|where are|how s|how is|how are|at|going|coming|doing|looking|along|status|progress|any news on|any update on|where are we with|did we land|how far|done|ready|finished|complete|go out|gone out|wie weit|ist|sind|was macht|wie steht s|stand|fertig|schon|eigentlich|gerade|ou en est|ou en sont|ca en est ou|ca avance|pret|fini|como va|como van|que tal va|que tal van|en que punto|listo|lista|ya esta|did|has|have|is|are)\b|做到哪了?|到哪一步|怎么样了|进度|好了吗|完成了吗|做完了吗|做好了吗|停掉|停止|取消|别做了|不做了|算了|暂停|先停|继续做|恢复|進捗|どこまで|どうなって|進んでる|止めて|やめて|中止|キャンセル|一旦ストップ|ストップ|一時停止|再開|続けて/gu;

/**
 * A request for something indefinite ("build a 3D scene", "ein Plakat für …", "une affiche pour",
 * "做一张海报"): new work unless it names an existing task by name. "A bit", "un peu" are no objects.
 */
export const INDEFINITE_OBJECT =
  /\b(a|an|ein|eine|einen|un|une|una|uno)\b(?! (bit|little|lot|touch|tad|bisschen|wenig|paar|peu|poco|poquito)\b)|(?<![第这那])(一|两|几|三|四|五)(张|个|条|套|份|本|款|版|整套)|(一つ|ひとつ|一枚|1枚)/u;

/**
 * Wanting something made, said of someone else ("the gym wants a video", "die Brauerei möchte",
 * "le salon voudrait", "la escuela quiere", "necesita"): a request, though no verb of making is in it.
 */
export const WANT =
  /\b(wants?|wanted|needs?|(would|d) (like|love)|asked for|is asking for|are asking for|mochte|mochten|braucht|brauchen|will|wollen|wunscht|wunschen|hatte gern|hatten gern|veut|veulent|voudrai\w*|souhait\w*|a besoin|ont besoin|aimerai\w*|quier\w*|necesit\w*|busca|buscan|le gustaria|les gustaria)\b|(想要|需要|要一|希望|欲しい|ほしい|お願いしたい)/u;

/**
 * New work modelled on earlier work ("same style", "so ähnlich wie die von Falkenstein", "dans le
 * même style", "como el de"): the earlier work is the model, not the work to change.
 */
export const SIMILAR =
  /\b(same style|same look|same feel|in the style of|similar to|similar ones?|just like (the|those|that)|like the ones?|along the lines of|(so )?ahnlich wie|im (gleichen|selben) (stil|look)|nach dem vorbild|wie (die|das|der) (von|fur|vom|beim)|dans le meme (style|esprit|gout)|du meme style|meme style que|similaire a|comme (celle|celui|ceux|celles) (de|du|des|pour)|del mismo estilo|mismo estilo|estilo parecido|parecid[oa]s? a|como (el|la|los|las) de|igual que (el|la|los|las) de)\b|(同样的风格|一样的风格|同样风格|类似的|仿照|参照|と同じ(感じ|スタイル|テイスト|雰囲気)|みたいな感じ)/u;

/**
 * What a client is called by: a shop, a practice, an event. A capitalised name beside one of these
 * ("Brauerei Hirschberg", "Juniper Climbing Gym", "escuela de baile Compás") names the client.
 */
export const ORGANISATION =
  /^\p{L}{3,}(erei|praxis|schule|studio|salon|verein|zentrum|galerie)$|^(bakery|bakeries|cafe|coffee|brewery|hotel|gym|school|shop|store|studio|salon|restaurant|bistro|bar|clinic|practice|agency|festival|club|company|co|inc|ltd|gmbh|ag|kg|market|gallery|museum|theatre|theater|library|winery|farm|florist|pharmacy|bookshop|bookstore|boutique|spa|academy|foundation|association|bank|group|labs?|baeckerei|backerei|brauerei|konditorei|metzgerei|praxis|schule|verein|kanzlei|apotheke|buchhandlung|weingut|hof|laden|galerie|boulangerie|patisserie|brasserie|fromagerie|librairie|pharmacie|cabinet|ecole|clinique|association|cave|domaine|maison|atelier|panaderia|pasteleria|floristeria|libreria|farmacia|escuela|academia|gimnasio|clinica|tienda|bodega|cerveceria|taller|estudio|fundacion|restaurante|cafeteria)$/u;

/**
 * A count of new things ("three retro posters", "drei Plakate", "trois affiches", "tres carteles"),
 * not of the ones that exist ("the three posters") and not more of them ("three more posters").
 */
export const COUNTED_OBJECT =
  /(?<!\b(the|die|den|les|los|las|ces|these|those|diese|estos|estas|mes|my|our|unsere)\s)\b(two|three|four|five|six|seven|eight|ten|twelve|zwei|drei|vier|funf|sechs|acht|zehn|deux|trois|quatre|cinq|six|huit|dix|dos|tres|cuatro|cinco|seis|ocho|diez)\b(?! (more|additional|extra|further|weitere|zusatzliche|de plus|autres|mas|adicionales)\b)/u;
