// German message templates (informal "du", as the studio speaks to its people).
import { subjectWords } from './facts.ts';
import { clip, formatDate, formatMoney, quote } from './languages.ts';
import type { Fact, FactKind, ObjectKindName, SourceKindName, OfflinePlanKind, GenerationKindName, OfflineStep, PaidWork, SteerSignal, TaskStateView, Texts } from './types.ts';

const q = (s: string) => quote('de', s);
const money = (c: number) => formatMoney('de', c);
const list = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} und ${xs.at(-1)}`);

function fact(f: Fact): string {
  const v = f.value;
  const by: Record<FactKind, string> = {
    brandColor: `unsere Markenfarbe ${v} ist`,
    brandFont: `unsere Markenschrift ${v} ist`,
    brandTone: `unser Markenton ${v} ist`,
    brandLogo: `unser Logo ${v} ist`,
    brandTagline: `unser Slogan ${v} ist`,
    companyName: `unsere Firma ${v} heißt`,
    companyLocation: `euer Studio in ${v} ist`,
    signature: `du mit ${v} unterschreibst`,
    residence: `du in ${v} wohnst`,
    name: `du ${v} heißt`,
    work: `du ${v} arbeitest`,
    prefer: `du ${v} bevorzugst`,
    avoid: `du ${v} lieber vermeidest`,
    habit: `du immer ${v}`,
    other: `${subjectWords(f.subject)}: ${v}`,
  };
  return by[f.kind];
}

const LABEL: Record<FactKind, string> = {
  brandColor: 'Markenfarbe',
  brandFont: 'Markenschrift',
  brandTone: 'Markenton',
  brandLogo: 'Logo',
  brandTagline: 'Slogan',
  companyName: 'Firmenname',
  companyLocation: 'Euer Studio',
  signature: 'Unterschrift',
  residence: 'Wohnort',
  name: 'Dein Name',
  work: 'Deine Arbeit',
  prefer: 'Du bevorzugst',
  avoid: 'Du vermeidest',
  habit: 'Du immer',
  other: 'Gemerkt',
};

const VERB: Record<SteerSignal, string> = { CANCEL: 'stoppen', PAUSE: 'pausieren', RESUME: 'fortsetzen' };
const OBJECT: Record<ObjectKindName, string> = { IMAGE: 'Bild', VIDEO: 'Video', AUDIO: 'Audio', MODEL_3D: '3D-Modell', DOCUMENT: 'Dokument', COLLECTION: 'Sammlung', FLOW: 'Ablauf' };
const SOURCE: Record<SourceKindName, string> = { MESSAGE: 'Eine Nachricht', NOTE: 'Eine Notiz', OBSERVATION: 'Eine Beobachtung' };
const PLAN: Record<OfflinePlanKind, string> = { 'poster-series': 'Plakatserie', 'image-series': 'Bildserie', image: 'Bild', 'image-to-video': 'Video aus einem Bild', audio: 'Audio', '3d': '3D-Modell', video: 'Video', storyboard: 'Storyboard', document: 'Dokument', change: 'Änderung', resume: 'Fortsetzung' };
const plan = (k: string) => PLAN[k as OfflinePlanKind] ?? k;

function state(s: TaskStateView): string {
  switch (s.kind) {
    case 'paused':
      return `ist pausiert${s.reason ? ` (${s.reason})` : ''}`;
    case 'decision':
      return `wartet auf deine Entscheidung: ${s.title}`;
    case 'generating':
      return `wird gerade generiert (${s.running} ${s.running === 1 ? 'läuft' : 'laufen'})`;
    case 'waiting':
      return 'wartet';
    case 'working':
      return 'ist in Arbeit';
    case 'queued':
      return 'geht gleich weiter';
    case 'completed':
      return 'ist fertig';
    case 'failed':
      return `ist fehlgeschlagen${s.reason ? ` (${s.reason})` : ''}`;
    case 'cancelled':
      return 'wurde abgebrochen';
    case 'budget':
      return 'hat ihr Budget erreicht und wurde gestoppt';
  }
}

function paidWork(p: PaidWork): string {
  const parts: string[] = [];
  if (p.runningJobs) parts.push(p.runningJobs === 1 ? 'eine Generierung läuft' : `${p.runningJobs} Generierungen laufen`);
  if (p.heldCents) parts.push(`${money(p.heldCents)} sind reserviert`);
  if (p.approvedCents) parts.push(`ein Planbudget von ${money(p.approvedCents)} ist freigegeben`);
  return list(parts);
}

const KIND: Record<GenerationKindName, string> = { IMAGE: 'Bild', VIDEO: 'Kurzes Video', AUDIO: 'Audioclip', MODEL_3D: '3D-Modell' };

function step(s: OfflineStep): string {
  switch (s.step) {
    case 'lookCandidates':
      return 'Entwürfe für den Look';
    case 'pickDirection':
      return 'Richtung wählen';
    case 'poster':
      return `Plakat ${s.n}`;
    case 'image':
      return s.n === null ? 'Bild' : `Bild ${s.n}`;
    case 'storyboard':
      return 'Storyboard';
    case 'confirmStoryboard':
      return 'Storyboard bestätigen';
    case 'character':
      return 'Figurenblatt';
    case 'setting':
      return 'Schauplatz';
    case 'finalCut':
      return 'Endschnitt';
    case 'shot':
      return `Einstellung ${s.n}`;
    case 'referenceImage':
      return 'Referenzbild';
    case 'videoFromImage':
      return 'Video aus dem Bild';
    case 'audioClip':
      return 'Audioclip';
    case 'model3d':
      return '3D-Modell';
    case 'brief':
      return 'Briefing';
    case 'text':
      return 'Text';
  }
}

export const de: Texts = {
  lang: 'de',
  money,
  date: (d) => formatDate('de', d),
  q,

  greeting: 'Hallo! Was machen wir heute?',
  thanks: 'Gern geschehen.',
  help: (offline) =>
    'Sag mir, was entstehen soll — eine Plakatserie, ein Bild, ein kurzes Video, ein 3D-Modell, ein Sound, ein Storyboard oder ein Briefing — dann starte ich eine Aufgabe und halte dich hier auf dem Laufenden. ' +
    'Du kannst auch fragen, woran ich arbeite oder wie weit eine Aufgabe ist („wie weit ist das Video?“), mich eine stoppen, pausieren oder fortsetzen lassen („pausiere die Plakate“) ' +
    'und mir Dinge zum Merken sagen („unsere Markenfarbe ist Petrol“).' +
    (offline ? ' Es ist kein Sprachmodell eingerichtet; ich arbeite nach festen Regeln und sage das auch.' : ''),
  cannotAnswer: (offline) =>
    offline
      ? 'Darauf kann ich nicht antworten: Es ist kein Sprachmodell eingerichtet, daher antworte ich nur aus Gespeichertem — was gerade läuft, wie weit eine Aufgabe ist und was ich mir merken sollte.'
      : 'Darauf habe ich keine Antwort.',
  nothingInProgress: 'Gerade läuft nichts. Sag mir, was du machen möchtest, dann starte ich eine Aufgabe.',
  workingOn: (lines) => ['Daran arbeite ich gerade:', ...lines.map((l) => `• ${l}`)].join('\n'),

  status: (title, s) => `${q(title)} ${state(s)}.`,
  progress: (done, total, next) => `${done} von ${total} Schritten erledigt${next ? `; als Nächstes: ${next}` : ''}.`,
  cost: (cents) => `Bisherige Kosten: ${money(cents)}.`,

  delivered: (title, said) =>
    `Verstanden — ich kümmere mich in ${q(title)} darum: ${q(clip(said))}.`,
  started: (title) => `Mache ich — ich habe ${q(title)} begonnen.`,
  followUp: (ended, title) => `${q(ended)} war schon abgeschlossen, deshalb habe ich eine Folgeaufgabe begonnen: ${q(title)}.`,

  remembered: (facts) => `Notiert — ich merke mir, dass ${list(facts.map(fact))}.`,
  nothingToRemember: 'Notiert. Ich habe darin nichts Dauerhaftes zum Merken gefunden; sag es etwa so: „unsere Markenfarbe ist …“.',
  recalled: (facts) => facts.map((f) => `${LABEL[f.kind]}: ${f.value} (das hast du mir am ${formatDate('de', f.since)} gesagt).`).join('\n'),
  recallUnknown: 'Das habe ich mir nicht gemerkt. Sag es mir („unsere Markenfarbe ist …“), dann merke ich es mir.',
  recalledEpisodes: (episodes) => ['Aus früherer Arbeit:', ...episodes.map((e) => `- ${formatDate('de', e.day)}, ${e.task ? `in ${q(e.task)}` : 'in unserem Thread'}: ${LABEL[e.kind]}: ${e.value} [${e.cites}]`)].join('\n'),

  steered: (signal, title, result) => {
    if (result === 'ended') return `${q(title)} ist bereits beendet; da gibt es nichts zu ${VERB[signal]}.`;
    if (result === 'already') return signal === 'RESUME' ? `${q(title)} läuft bereits.` : signal === 'PAUSE' ? `${q(title)} ist bereits pausiert.` : `${q(title)} war bereits gestoppt.`;
    return signal === 'RESUME' ? `${q(title)} geht weiter.` : signal === 'PAUSE' ? `${q(title)} ist pausiert. Sag mir, wann es weitergehen soll.` : `${q(title)} ist gestoppt.`;
  },
  confirmCancel: (title, paid) => `Wenn ich ${q(title)} stoppe, geht bezahlte Arbeit verloren: ${paidWork(paid)}. Trotzdem stoppen?`,
  confirmYes: (signal) => `Ja, ${VERB[signal]}`,
  confirmNo: 'Nein, weitermachen',
  kept: (title) => `Gut — ${q(title)} läuft weiter.`,
  whichTask: (signal) => `Welche Aufgabe soll ich ${VERB[signal]}?`,
  steerOption: (signal, title) => `${q(title)} ${VERB[signal]}`,
  nevermind: 'Doch nicht',

  clarifyWhich: 'Für welche Aufgabe ist das?',
  clarifyMore: 'Kannst du etwas genauer sagen, was du möchtest?',
  continueOption: (title) => `${q(title)} fortsetzen`,
  newTaskOption: 'Neue Aufgabe starten',

  deliveredFallback: 'Geliefert.',
  deliveredHeader: (done, total) => `Geliefert (${done} von ${total} Schritten):`,
  skipped: (l) => `Übersprungen: ${l}`,
  noReason: 'ohne Begründung',
  planTitle: (steps, cents) => `Plan: ${steps} Schritte, geschätzt ${money(cents)}`,
  impactTitle: (input, n, cents) => `„${input}“ wurde geändert: ${n} Ergebnis${n === 1 ? '' : 'se'} daraus für ${money(cents)} neu machen?`,
  impactRemake: (step, input, cents) => `„${step}“ neu machen (${money(cents)}): entstand aus dem früheren „${input}“.`,
  impactKeeps: (list) => `Bleibt, wie es ist: ${list}.`,
  impactWaits: (list) => `Noch nicht gemacht, nimmt die neue Fassung: ${list}.`,
  changedPlanTitle: (steps, budget, spent) => `Geänderter Plan: ${steps} Schritte, Budget ${money(budget)} (${money(spent)} bereits ausgegeben)`,
  planReasonNew: 'Ein neuer Plan wird freigegeben, bevor die Arbeit beginnt.',
  planReasonAgain: 'Der Plan ist seit der Freigabe bei bezahlten Ergebnissen oder Kosten gewachsen.',
  generateTitle: (kind, cents, prompt) => `${KIND[kind]} für ${money(cents)} erzeugen: ${q(prompt)}`,
  checkpointReason: 'Der Agent braucht deine Entscheidung, um weiterzumachen.',
  approvalReason: (r) => {
    switch (r.code) {
      case 'AUTONOMY_MANUAL':
        return 'Die Autonomie ist auf manuell gestellt: Jede kostenpflichtige Aktion wird bestätigt.';
      case 'CREDENTIAL_CONFIRMS_EACH':
        return 'Diese Aufgabe wurde über eine Integration gestartet, deren kostenpflichtige Aktionen einzeln bestätigt werden.';
      case 'PLAN_BUDGET':
        return `Damit käme die Aufgabe auf ${money(r.totalCents)}, über dem genehmigten Planbudget von ${money(r.budgetCents)}.`;
      case 'PER_ACTION_LIMIT':
        return `${money(r.quoteCents)} liegt über dem bestätigungsfreien Betrag von ${money(r.freeCents)} pro Aktion.`;
      case 'DAILY_LIMIT':
        return `Die kostenpflichtigen Aktionen von heute kämen auf ${money(r.totalCents)}, über die bestätigungsfreien ${money(r.freeCents)} pro Tag.`;
    }
  },
  supersededNote: (by, said) => `Zurückgestellt durch ${{ REVISE: 'deine Überarbeitung', ADD_CONTEXT: 'den Kontext, den du ergänzt hast', MESSAGE: 'deine Nachricht' }[by]}: ${q(said)}`,
  budgetCapReason: (quote, total, cap) => `Diese Aktion (${money(quote)}) brächte die Aufgabe auf ${money(total)}, über ihre Budgetobergrenze von ${money(cap)}.`,
  capRaiseTitle: (from, to) => `Diese Aufgabe hat ihre Budgetobergrenze von ${money(from)} erreicht. Auf ${money(to)} erhöhen und weitermachen?`,
  noLongerNeeded: 'Nicht mehr nötig: innerhalb der aktuellen Grenzen.',
  stepReopened: (reason) => `wieder geöffnet: ${reason}`,
  stepDropped: (reason) => `aus dem Plan genommen: ${reason}`,
  earlierResults: (list) => `frühere Ergebnisse: ${list}`,
  staleBecause: (input) => `entstand aus einem früheren „${input}“, das sich geändert hat`,
  staleRemade: (input) => `neu gemacht: „${input}“ hat sich geändert`,
  staleKept: 'behalten: eine Person wollte es nach der Änderung so lassen',
  personChose: (label, note) => `${label ? `gewählt: „${label}“` : 'bestätigt'}${note ? `: ${note}` : ''}`,
  deleteObjectTitle: (kind, name) => `${OBJECT[kind]} ${q(name)} löschen`,
  deleteObjectReason: 'Das Löschen eines Objekts lässt sich nicht rückgängig machen.',
  forgetSourceTitle: (kind, day) => `Alles vergessen, was aus ${({ MESSAGE: 'einer Nachricht', NOTE: 'einer Notiz', OBSERVATION: 'einer Beobachtung' } as const)[kind]} vom ${formatDate('de', day)} gemerkt wurde${kind === 'MESSAGE' ? ' — die Nachricht selbst bleibt im Chat' : ''}`,
  forgetSourceReason: 'Vergessene Erinnerungen, Zusammenfassungen und Profileinträge lassen sich nicht wiederherstellen.',
  forgetMemoryTitle: (kind, key) => `Erinnerung vergessen: ${kind === 'other' ? subjectWords(key) : LABEL[kind]}`,
  forgetMemoryReason: 'Eine vergessene Erinnerung lässt sich nicht wiederherstellen.',
  forgetWorksReason: (n) => `Es steht auch in ${n === 1 ? 'einem deiner Werke' : `${n} deiner Werke`}; nach dem Vergessen kannst du es aus den Werken deiner Wahl entfernen.`,
  worksRemovedMarker: '[entfernt]',
  worksRedactedSummary: 'entfernt, was du vergessen lassen wolltest',
  worksWithheldLabel: '[zurückgehalten]',
  worksWithheldMessage: 'Zurückgehalten: Diese Version enthielt etwas, das du vergessen lassen wolltest.',

  taskState: {
    paused: (r) => (r ? `Pausiert — ${r}` : 'Pausiert'),
    completed: 'Abgeschlossen',
    cancelled: (r) => (r ? `Abgebrochen — ${r}` : 'Abgebrochen'),
    failed: (r) => (r ? `Fehlgeschlagen — ${r}` : 'Fehlgeschlagen'),
    budgetExceeded: 'Angehalten: das Budgetlimit ist erreicht',
    needsPerson: (q) => `Wartet auf die Entscheidung einer Person in Atelier: ${q}`,
    waiting: (r) => (r ? `Wartet — ${r}` : 'Wartet'),
    working: 'In Arbeit',
    queued: 'Geht gleich weiter',
  },
  escalation: {
    repeatedDenial: (tool, scope) => `Der Agent hat „${tool}“ erneut versucht, obwohl es abgelehnt wurde${scope ? `: Dafür braucht er das Recht „${scope}“, das ihm die Eigentümer des Arbeitsbereichs nicht gegeben haben` : ''}.`,
    unknownOutcome: (tool) => `Der Agent kann nicht sagen, ob „${tool}“ ausgeführt wurde: Seine Arbeit wurde mitten im Aufruf unterbrochen.`,
    ask: 'Darf der Agent ohne das weitermachen, oder erledigst du es selbst? Sag ihm, wie es weitergehen soll.',
    verify: 'Bitte prüfe, ob es ausgeführt wurde, und sag dem Agenten, was du festgestellt hast.',
    escalate: 'Ein Eigentümer sollte sich ansehen, was der Agent versucht hat. Sag ihm, wie es weitergehen soll.',
  },
  mcp: {
    callTitle: (tool, server) => `Darf der Agent ${q(tool)} von ${q(server)} verwenden?`,
    paidCallTitle: (tool, server, cents) => `${q(tool)} von ${q(server)} für ${money(cents)} verwenden?`,
    destructiveReason: 'Der Server kennzeichnet dieses Werkzeug als zerstörend: Was es tut, lässt sich womöglich nicht rückgängig machen.',
    untrustedReason: 'Der Server gilt nicht als vertrauenswürdig, und dieses Werkzeug kann etwas verändern.',
    declined: 'Eine Person hat diesen Aufruf nicht erlaubt; nichts wurde gesendet.',
    notActive: (server) => `Der MCP-Server ${q(server)} ist nicht aktiv; nichts wurde gesendet.`,
    unreachable: (server) => `Der MCP-Server ${q(server)} war nicht erreichbar. Nichts wurde gesendet.`,
    egressDenied: (server, host) => `Der MCP-Server ${q(server)} darf nicht erreicht werden: Aufrufe an ${host} sind für diesen Arbeitsbereich nicht erlaubt (Egress). Nichts wurde gesendet. Ein Eigentümer kann den Host erlauben.`,
    withdrawn: (tool, server) => `Das Werkzeug ${q(tool)} wird von ${q(server)} nicht mehr angeboten; nichts wurde gesendet.`,
    changed: (server, what) => `Der MCP-Server ${q(server)} hat seine Werkzeuge geändert (${what}); ein Eigentümer muss die Änderung freigeben. Nichts wurde gesendet.`,
    toolError: (text) => `Das Werkzeug meldete einen Fehler: ${text || 'ohne Angaben'}`,
    noAnswer: (server, detail) => `Der MCP-Server ${q(server)} hat den Aufruf nicht abgeschlossen: ${detail}`,
    outputMismatch: (problems) => `Das Werkzeug antwortete mit einem Ergebnis, das nicht zu seiner angegebenen Ausgabe passt: ${problems}`,
    taskGone: (server) => `Der MCP-Server ${q(server)} kennt die Aufgabe dieses Aufrufs nicht mehr; ob er gewirkt hat, ist unbekannt. Vor einem neuen Aufruf prüfen.`,
    taskEnded: (_server, status) => `Die Aufgabe des MCP-Servers für diesen Aufruf endete ohne Ergebnis (${status}).`,
    charged: (cents) => `Sein Preis, ${money(cents)}, wurde berechnet: Der Server hat die Arbeit womöglich erledigt.`,
    chargedUnknown: (cents) => `Sein Preis, ${money(cents)}, wurde einmal berechnet: Der Aufruf hat womöglich stattgefunden. Vor einem neuen Aufruf prüfen — ein neuer Aufruf kostet erneut.`,
    notCharged: 'Nichts wurde berechnet.',
  },
  offline: {
    tag: '[Offline-Modell]',
    cannotReason: (recorded) => `Ohne eingerichtetes Modell kann ich nicht nachdenken (setze OPENAI_API_KEY oder OPENAI_BASE_URL). Notiert: ${recorded}`,
    usingTool: (tool) => `Ich rufe ${tool} auf.`,
    toolAnswered: (tool, answer) => `${tool} antwortet: ${answer}`,
    toolFailed: (tool, error) => `${tool} hat nicht funktioniert: ${error}`,
    toolNeedsInput: (tool, missing) => `${tool} braucht ${missing}; schreib es in Anführungszeichen, z. B. ${tool} "…".`,
    noRequest: '(keine Anfrage angegeben)',
    planning: 'Plane nach festen Regeln.',
    declined: 'Der Plan wurde abgelehnt. Was soll ich ändern?',
    choose: (s) => `${s}: Woran sollen sich die übrigen orientieren?`,
    confirm: (s) => `${s} — soll ich weitermachen?`,
    changeWhat: (s) => `Nichts Passendes bei „${s}“? Sag mir, was sich ändern soll, dann mache ich es neu.`,
    candidate: (n) => `Entwurf ${String.fromCharCode(64 + n)}`,
    allDone: 'Alle Schritte sind erledigt.',
    deliveredList: (l) => `Geliefert: ${l}`,
    planningAgain: (said) => `Ich plane neu mit dem, was du gesagt hast: ${said}`,
    revise: (title) => `${title} überarbeiten`,
    step,
    planned: (k) => `Planung: ${plan(k)}, nach festen Regeln.`,
    reopening: (t) => `Richtungswechsel: ${t} wird neu geöffnet.`,
    generating: (t) => `Erzeuge ${t}.`,
    writing: (t) => `${t} wird nach einer Vorlage geschrieben.`,
    reading: (t) => `${t} wird vor der Änderung gelesen.`,
    updating: (t) => `${t} wird an die neue Richtung angepasst.`,
    followsDirection: (t) => `${t} folgt der neuen Richtung.`,
    planReason: (k) => `Offline-Plan (${plan(k)})`,
    revisedReason: (s) => `überarbeitet: ${s}`,
    contextReason: (s) => `mit ergänztem Kontext: ${s}`,
    directionReason: (d) => `Richtungswechsel: ${d ?? 'überarbeitet'}`,
    writtenEvidence: 'nach einer Vorlage geschrieben',
    updatedEvidence: 'an die neue Richtung angepasst',
    nothingToGenerate: 'für diesen Schritt gibt es nichts zu erzeugen',
    variant: (n, of) => ` (Variante ${n} von ${of})`,
    inTheLookOf: (c) => ` — im Look von ${c}`,
    document: {
      directionPrefix: 'Richtung: ',
      asBriefed: 'wie im Briefing',
      storyboard: 'Storyboard',
      shot: (n, h) => `Einstellung ${n}: ${h}`,
      shots: [
        ['Eröffnungseinstellung', 'totale, langsame Ranfahrt; zeigt Ort und Stimmung'],
        ['Das Motiv', 'Halbtotale; die Haupthandlung'],
        ['Schlussbild', 'Nahaufnahme, stehend; der Slogan oder das Logo'],
      ],
      seconds: (n) => `${n} s`,
      brief: 'Briefing',
      briefSections: [
        ['Ziel', 'Was die Arbeit erreichen muss.'],
        ['Zielgruppe', 'Für wen sie gedacht ist.'],
        ['Tonalität', 'Wie sie wirken soll.'],
        ['Lieferumfang', 'Was geliefert wird, in welchen Formaten.'],
      ],
      firstDraft: (s) => `Ein erster Entwurf für: ${s}.`,
      fromTemplate: 'nach einer festen Vorlage geschrieben',
    },
  },
};
