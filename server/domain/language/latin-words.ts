// Latin-script word lists, per language: function words, chat words and creative-studio vocabulary
// (colours, layout, image edits). A word listed for k languages gives 1/k to each (see ./latin.ts),
// so shared words are kept on every list they belong to rather than on one.
import type { LatinLanguage } from './codes.ts';

const inflect = (stems: string, endings: readonly string[]): string =>
  stems
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((s) => endings.map((e) => s + e))
    .join(' ');

const DE_ADJ_ENDINGS = ['', 'e', 'er', 'en', 'es', 'em'] as const;

export const WORDS: Record<LatinLanguage, string> = {
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
