// French message templates ("vous").
import { subjectWords } from './facts.ts';
import { clip, formatDate, formatMoney, quote } from './languages.ts';
import type { Fact, FactKind, ObjectKindName, SourceKindName, OfflinePlanKind, GenerationKindName, OfflineStep, PaidWork, SteerSignal, TaskStateView, Texts } from './types.ts';

const q = (s: string) => quote('fr', s);
const money = (c: number) => formatMoney('fr', c);
const list = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} et ${xs.at(-1)}`);

function fact(f: Fact): string {
  const v = f.value;
  const by: Record<FactKind, string> = {
    brandColor: `notre couleur de marque est ${v}`,
    brandFont: `notre police de marque est ${v}`,
    brandTone: `le ton de notre marque est ${v}`,
    brandLogo: `notre logo est ${v}`,
    brandTagline: `notre slogan est ${v}`,
    companyName: `notre entreprise s’appelle ${v}`,
    companyLocation: `votre studio est à ${v}`,
    signature: `vous signez ${v}`,
    residence: `vous habitez à ${v}`,
    name: `vous vous appelez ${v}`,
    work: `vous travaillez ${v}`,
    prefer: `vous préférez ${v}`,
    avoid: `vous évitez ${v}`,
    habit: `vous faites toujours ceci : ${v}`,
    other: `${subjectWords(f.subject)} : ${v}`,
  };
  return by[f.kind];
}

const LABEL: Record<FactKind, string> = {
  brandColor: 'Couleur de marque',
  brandFont: 'Police de marque',
  brandTone: 'Ton de la marque',
  brandLogo: 'Logo',
  brandTagline: 'Slogan',
  companyName: 'Nom de l’entreprise',
  companyLocation: 'Votre studio',
  signature: 'Signature',
  residence: 'Votre ville',
  name: 'Votre nom',
  work: 'Votre travail',
  prefer: 'Vous préférez',
  avoid: 'Vous évitez',
  habit: 'Toujours',
  other: 'Retenu',
};

const VERB: Record<SteerSignal, string> = { CANCEL: 'arrêter', PAUSE: 'mettre en pause', RESUME: 'reprendre' };
const OBJECT: Record<ObjectKindName, string> = { IMAGE: 'l’image', VIDEO: 'la vidéo', AUDIO: 'l’audio', MODEL_3D: 'le modèle 3D', DOCUMENT: 'le document', COLLECTION: 'la collection', FLOW: 'le flux' };
const SOURCE: Record<SourceKindName, string> = { MESSAGE: 'un message', NOTE: 'une note', OBSERVATION: 'une observation' };
const PLAN: Record<OfflinePlanKind, string> = { 'poster-series': 'série d’affiches', 'image-series': 'série d’images', image: 'image', 'image-to-video': 'vidéo à partir d’une image', audio: 'audio', '3d': 'modèle 3D', video: 'vidéo', storyboard: 'storyboard', document: 'document', change: 'modification', resume: 'suite' };
const plan = (k: string) => PLAN[k as OfflinePlanKind] ?? k;

function state(s: TaskStateView): string {
  switch (s.kind) {
    case 'paused':
      return `est en pause${s.reason ? ` (${s.reason})` : ''}`;
    case 'decision':
      return `attend votre décision pour continuer : ${s.title}`;
    case 'generating':
      return `est en cours de génération (${s.running} en cours)`;
    case 'waiting':
      return 'est en attente';
    case 'working':
      return 'est en cours';
    case 'queued':
      return 'va reprendre dans un instant';
    case 'completed':
      return 'est terminée';
    case 'failed':
      return `a échoué${s.reason ? ` (${s.reason})` : ''}`;
    case 'cancelled':
      return 'a été annulée';
    case 'budget':
      return "s'est arrêtée à son plafond de budget";
  }
}

function paidWork(p: PaidWork): string {
  const parts: string[] = [];
  if (p.runningJobs) parts.push(p.runningJobs === 1 ? 'une génération est en cours' : `${p.runningJobs} générations sont en cours`);
  if (p.heldCents) parts.push(`${money(p.heldCents)} sont réservés`);
  if (p.approvedCents) parts.push(`un budget de ${money(p.approvedCents)} a été approuvé`);
  return list(parts);
}

const KIND: Record<GenerationKindName, string> = { IMAGE: 'une image', VIDEO: 'une courte vidéo', AUDIO: 'un extrait audio', MODEL_3D: 'un modèle 3D' };

function step(s: OfflineStep): string {
  switch (s.step) {
    case 'lookCandidates':
      return 'Pistes visuelles';
    case 'pickDirection':
      return 'Choisir une direction';
    case 'poster':
      return `Affiche ${s.n}`;
    case 'image':
      return s.n === null ? 'Image' : `Image ${s.n}`;
    case 'storyboard':
      return 'Storyboard';
    case 'confirmStoryboard':
      return 'Valider le storyboard';
    case 'character':
      return 'Fiche personnage';
    case 'setting':
      return 'Décor';
    case 'finalCut':
      return 'Montage final';
    case 'shot':
      return `Plan ${s.n}`;
    case 'referenceImage':
      return 'Image de référence';
    case 'videoFromImage':
      return "Vidéo à partir de l'image";
    case 'audioClip':
      return 'Extrait audio';
    case 'model3d':
      return 'Modèle 3D';
    case 'brief':
      return 'Brief';
    case 'text':
      return 'Texte';
  }
}

export const fr: Texts = {
  lang: 'fr',
  money,
  date: (d) => formatDate('fr', d),
  q,

  greeting: 'Bonjour ! Que créons-nous ?',
  thanks: 'Avec plaisir.',
  help: (offline) =>
    "Dites-moi ce qu'il faut créer — une série d'affiches, une image, une courte vidéo, un modèle 3D, un son, un storyboard ou un brief — et je lance une tâche en vous tenant au courant ici. " +
    'Vous pouvez aussi demander sur quoi je travaille ou où en est une tâche (« où en est la vidéo ? »), me demander d’en arrêter, mettre en pause ou reprendre une (« mets les affiches en pause »), ' +
    'et me dire ce que je dois retenir (« notre couleur de marque est le bleu canard »).' +
    (offline ? " Aucun modèle de langage n'est configuré : je suis des règles fixes et je le dis." : ''),
  cannotAnswer: (offline) =>
    offline
      ? "Je ne peux pas répondre à cela : aucun modèle de langage n'est configuré, je ne réponds donc qu'à partir de ce qui est enregistré — ce qui est en cours, où en est une tâche et ce que vous m'avez demandé de retenir."
      : "Je n'ai pas de réponse à cela.",
  nothingInProgress: "Rien n'est en cours pour l'instant. Dites-moi ce que vous aimeriez créer et je lance une tâche.",
  workingOn: (lines) => ['Voici ce sur quoi je travaille :', ...lines.map((l) => `• ${l}`)].join('\n'),

  status: (title, s) => `${q(title)} ${state(s)}.`,
  progress: (done, total, next) => `${done} étape${done > 1 ? 's' : ''} sur ${total} terminée${done > 1 ? 's' : ''}${next ? ` ; ensuite : ${next}` : ''}.`,
  cost: (cents) => `Coût jusqu'ici : ${money(cents)}.`,

  delivered: (title, said) =>
    `C'est noté — je m'en occupe dans ${q(title)} : ${q(clip(said))}.`,
  started: (title) => `C'est parti — j'ai commencé ${q(title)}.`,
  followUp: (ended, title) => `${q(ended)} était déjà terminée, j'ai donc commencé une suite : ${q(title)}.`,

  remembered: (facts) => `C'est noté — je retiens que ${list(facts.map(fact))}.`,
  nothingToRemember: "C'est noté. Je n'y ai trouvé rien de durable à retenir ; dites-le par exemple ainsi : « notre couleur de marque est … ».",
  recalled: (facts) => facts.map((f) => `${LABEL[f.kind]} : ${f.value} (vous me l'avez dit le ${formatDate('fr', f.since)}).`).join('\n'),
  recallUnknown: "Je n'ai rien retenu à ce sujet. Dites-le-moi (« notre couleur de marque est … ») et je le retiendrai.",
  recalledEpisodes: (episodes) => ["D'après le travail précédent :", ...episodes.map((e) => `- le ${formatDate('fr', e.day)}, ${e.task ? `dans ${q(e.task)}` : 'dans notre fil'} : ${LABEL[e.kind]} : ${e.value} [${e.cites}]`)].join('\n'),

  steered: (signal, title, result) => {
    if (result === 'ended') return `${q(title)} est déjà terminée ; il n'y a plus rien à ${VERB[signal]}.`;
    if (result === 'already') return signal === 'RESUME' ? `${q(title)} est déjà en cours.` : signal === 'PAUSE' ? `${q(title)} est déjà en pause.` : `${q(title)} était déjà arrêtée.`;
    return signal === 'RESUME' ? `${q(title)} reprend.` : signal === 'PAUSE' ? `${q(title)} est en pause. Dites-moi quand reprendre.` : `${q(title)} est arrêtée.`;
  },
  confirmCancel: (title, paid) => `Arrêter ${q(title)} abandonnerait du travail payé : ${paidWork(paid)}. L'arrêter quand même ?`,
  confirmYes: (signal) => `Oui, ${VERB[signal]}`,
  confirmNo: 'Non, continuer',
  kept: (title) => `D'accord — ${q(title)} continue.`,
  whichTask: (signal) => `Quelle tâche dois-je ${VERB[signal]} ?`,
  steerOption: (signal, title) => `${VERB[signal].charAt(0).toUpperCase()}${VERB[signal].slice(1)} ${q(title)}`,
  nevermind: 'Laisser tomber',

  clarifyWhich: "C'est pour quelle tâche ?",
  clarifyMore: 'Pouvez-vous préciser ce que vous souhaitez ?',
  continueOption: (title) => `Continuer ${q(title)}`,
  newTaskOption: 'Commencer une nouvelle tâche',

  deliveredFallback: 'Livré.',
  deliveredHeader: (done, total) => `Livré (${done} étape${done > 1 ? 's' : ''} sur ${total}) :`,
  skipped: (l) => `Ignoré : ${l}`,
  noReason: 'sans raison',
  planTitle: (steps, cents) => `Plan : ${steps} étapes, estimé à ${money(cents)}`,
  impactTitle: (input, n, cents) => `« ${input} » a changé : refaire ${n} résultat${n === 1 ? '' : 's'} qui en découle${n === 1 ? '' : 'nt'} pour ${money(cents)} ?`,
  impactRemake: (step, input, cents) => `Refaire « ${step} » (${money(cents)}) : fait à partir de l’ancien « ${input} ».`,
  impactKeeps: (list) => `Reste tel quel : ${list}.`,
  impactWaits: (list) => `Pas encore fait, utilisera la nouvelle version : ${list}.`,
  changedPlanTitle: (steps, budget, spent) => `Plan modifié : ${steps} étapes, budget ${money(budget)} (${money(spent)} déjà dépensés)`,
  planReasonNew: 'Un nouveau plan est approuvé avant que le travail commence.',
  planReasonAgain: "Le plan a grandi en résultats payants ou en coût depuis qu'il a été approuvé.",
  generateTitle: (kind, cents, prompt) => `Générer ${KIND[kind]} pour ${money(cents)} : ${q(prompt)}`,
  checkpointReason: "L'agent a besoin de votre décision pour continuer.",
  approvalReason: (r) => {
    switch (r.code) {
      case 'AUTONOMY_MANUAL':
        return "L'autonomie est réglée sur manuel : chaque action payante est confirmée.";
      case 'CREDENTIAL_CONFIRMS_EACH':
        return 'Cette tâche a été lancée par une intégration dont les actions payantes sont confirmées une par une.';
      case 'PLAN_BUDGET':
        return `Cela porterait la tâche à ${money(r.totalCents)}, au-delà du budget du plan approuvé de ${money(r.budgetCents)}.`;
      case 'PER_ACTION_LIMIT':
        return `${money(r.quoteCents)} dépasse le montant sans confirmation de ${money(r.freeCents)} par action.`;
      case 'DAILY_LIMIT':
        return `Les actions payantes d'aujourd'hui atteindraient ${money(r.totalCents)}, au-delà des ${money(r.freeCents)} sans confirmation par jour.`;
    }
  },
  supersededNote: (by, said) => `Mise de côté par ${{ REVISE: 'votre révision', ADD_CONTEXT: 'le contexte que vous avez ajouté', MESSAGE: 'votre message' }[by]} : ${q(said)}`,
  budgetCapReason: (quote, total, cap) => `Cette action (${money(quote)}) porterait la tâche à ${money(total)}, au-delà de son plafond de budget de ${money(cap)}.`,
  capRaiseTitle: (from, to) => `Cette tâche a atteint son plafond de budget de ${money(from)}. Le porter à ${money(to)} et continuer ?`,
  noLongerNeeded: 'Plus nécessaire : dans les limites actuelles.',
  stepReopened: (reason) => `rouvert : ${reason}`,
  stepDropped: (reason) => `retiré du plan : ${reason}`,
  earlierResults: (list) => `résultats précédents : ${list}`,
  staleBecause: (input) => `fait à partir d’un ancien « ${input} », qui a changé`,
  staleRemade: (input) => `refait : « ${input} » a changé`,
  staleKept: 'gardé tel quel : une personne a choisi de le garder après le changement',
  personChose: (label, note) => `${label ? `choisi : « ${label} »` : 'confirmé'}${note ? ` : ${note}` : ''}`,
  deleteObjectTitle: (kind, name) => `Supprimer ${OBJECT[kind]} ${q(name)}`,
  deleteObjectReason: 'La suppression d’un objet est définitive.',
  forgetSourceTitle: (kind, day) => `Oublier tout ce qui a été retenu d'${SOURCE[kind]} du ${formatDate('fr', day)}${kind === 'MESSAGE' ? ' — le message lui-même reste dans la conversation' : ''}`,
  forgetSourceReason: 'Les souvenirs, résumés et entrées de profil oubliés ne peuvent pas être restaurés.',
  forgetMemoryTitle: (kind, key) => `Oublier un souvenir : ${kind === 'other' ? subjectWords(key) : LABEL[kind]}`,
  forgetMemoryReason: 'Un souvenir oublié ne peut pas être restauré.',
  forgetWorksReason: (n) => `Cela figure aussi dans ${n === 1 ? 'une de vos œuvres' : `${n} de vos œuvres`} ; après l’oubli, vous pourrez le retirer de celles que vous choisirez.`,
  worksRemovedMarker: '[supprimé]',
  worksRedactedSummary: 'a retiré ce que vous avez demandé d’oublier',
  worksWithheldLabel: '[masqué]',
  worksWithheldMessage: 'Masqué : cette version contenait quelque chose que vous avez demandé d’oublier.',

  taskState: {
    paused: (r) => (r ? `En pause — ${r}` : 'En pause'),
    completed: 'Terminée',
    cancelled: (r) => (r ? `Annulée — ${r}` : 'Annulée'),
    failed: (r) => (r ? `Échouée — ${r}` : 'Échouée'),
    budgetExceeded: 'Arrêtée : le plafond de budget est atteint',
    needsPerson: (q) => `Attend la décision d’une personne dans Atelier : ${q}`,
    waiting: (r) => (r ? `En attente — ${r}` : 'En attente'),
    working: 'En cours',
    queued: 'Reprend dans un instant',
  },
  escalation: {
    repeatedDenial: (tool, scope) => `L’agent a de nouveau essayé « ${tool} » après un refus${scope ? ` : il lui faut le droit « ${scope} », que les propriétaires de l’espace ne lui ont pas donné` : ''}.`,
    unknownOutcome: (tool) => `L’agent ne peut pas savoir si « ${tool} » a eu lieu : son travail a été interrompu pendant l’appel.`,
    ask: 'L’agent peut-il continuer sans cela, ou le faites-vous vous-même ? Dites-lui comment poursuivre.',
    verify: 'Vérifiez si cela a eu lieu, et dites à l’agent ce que vous avez constaté.',
    escalate: 'Un propriétaire devrait regarder ce que l’agent a tenté. Dites-lui comment poursuivre.',
  },
  mcp: {
    callTitle: (tool, server) => `Autoriser l'agent à utiliser ${q(tool)} de ${q(server)} ?`,
    paidCallTitle: (tool, server, cents) => `Utiliser ${q(tool)} de ${q(server)} pour ${money(cents)} ?`,
    destructiveReason: 'Le serveur indique que cet outil est destructif : son effet peut être irréversible.',
    untrustedReason: "Le serveur n'est pas de confiance, et cet outil peut modifier quelque chose.",
    declined: "Une personne n'a pas autorisé cet appel ; rien n'a été envoyé.",
    notActive: (server) => `Le serveur MCP ${q(server)} n'est pas actif ; rien n'a été envoyé.`,
    unreachable: (server) => `Le serveur MCP ${q(server)} est injoignable. Rien n'a été envoyé.`,
    egressDenied: (server, host) => `Le serveur MCP ${q(server)} ne peut pas être contacté : les appels vers ${host} ne sont pas autorisés pour cet espace de travail (egress). Rien n'a été envoyé. Un propriétaire peut autoriser l'hôte.`,
    withdrawn: (tool, server) => `L'outil ${q(tool)} n'est plus proposé par ${q(server)} ; rien n'a été envoyé.`,
    changed: (server, what) => `Le serveur MCP ${q(server)} a changé ses outils (${what}) ; un propriétaire doit approuver le changement. Rien n'a été envoyé.`,
    toolError: (text) => `L'outil a signalé une erreur : ${text || 'sans détails'}`,
    noAnswer: (server, detail) => `Le serveur MCP ${q(server)} n'a pas terminé l'appel : ${detail}`,
    outputMismatch: (problems) => `L'outil a répondu avec un résultat qui ne correspond pas à sa sortie déclarée : ${problems}`,
    taskGone: (server) => `Le serveur MCP ${q(server)} ne connaît plus la tâche de cet appel ; on ne sait pas s'il a eu lieu. Vérifier avant de le relancer.`,
    taskEnded: (_server, status) => `La tâche du serveur MCP pour cet appel s'est terminée sans résultat (${status}).`,
    charged: (cents) => `Son prix, ${money(cents)}, a été facturé : le serveur a peut-être fait le travail.`,
    chargedUnknown: (cents) => `Son prix, ${money(cents)}, a été facturé une fois : l'appel a peut-être eu lieu. Vérifier avant de le relancer — un nouvel appel est facturé à nouveau.`,
    notCharged: "Rien n'a été facturé.",
  },
  offline: {
    tag: '[modèle hors ligne]',
    cannotReason: (recorded) => `Je ne peux pas raisonner sans modèle configuré (définissez OPENAI_API_KEY ou OPENAI_BASE_URL). Noté : ${recorded}`,
    usingTool: (tool) => `J’appelle ${tool}.`,
    toolAnswered: (tool, answer) => `${tool} a répondu : ${answer}`,
    toolFailed: (tool, error) => `${tool} n’a pas fonctionné : ${error}`,
    toolNeedsInput: (tool, missing) => `${tool} a besoin de ${missing} ; écrivez-le entre guillemets, par ex. ${tool} "…".`,
    noRequest: '(aucune demande)',
    planning: 'Planification selon des règles fixes.',
    declined: 'Le plan a été refusé. Que dois-je changer ?',
    choose: (s) => `${s} : laquelle doit guider la suite ?`,
    confirm: (s) => `${s} — dois-je continuer ?`,
    changeWhat: (s) => `Rien ne convient pour « ${s} » ? Dites-moi quoi changer et je le refais.`,
    candidate: (n) => `Piste ${String.fromCharCode(64 + n)}`,
    allDone: 'Toutes les étapes sont terminées.',
    deliveredList: (l) => `Livré : ${l}`,
    planningAgain: (said) => `Je planifie à nouveau avec ce que vous avez dit : ${said}`,
    revise: (title) => `Retoucher ${title}`,
    step,
    planned: (k) => `Planification : ${plan(k)}, selon des règles fixes.`,
    reopening: (t) => `Changement de direction : je rouvre ${t}.`,
    generating: (t) => `Génération : ${t}.`,
    writing: (t) => `Rédaction à partir d’un modèle : ${t}.`,
    reading: (t) => `Lecture avant modification : ${t}.`,
    updating: (t) => `Mise à jour selon la nouvelle direction : ${t}.`,
    followsDirection: (t) => `${t} suit la nouvelle direction.`,
    planReason: (k) => `plan hors ligne (${plan(k)})`,
    revisedReason: (s) => `révisé : ${s}`,
    contextReason: (s) => `avec le contexte ajouté : ${s}`,
    directionReason: (d) => `changement de direction : ${d ?? 'révisé'}`,
    writtenEvidence: 'rédigé à partir d’un modèle',
    updatedEvidence: 'mis à jour selon la nouvelle direction',
    nothingToGenerate: 'rien à générer pour cette étape',
    variant: (n, of) => ` (variante ${n} sur ${of})`,
    inTheLookOf: (c) => ` — dans le style de ${c}`,
    document: {
      directionPrefix: 'Direction : ',
      asBriefed: 'selon le brief',
      storyboard: 'Storyboard',
      shot: (n, h) => `Plan ${n} : ${h}`,
      shots: [
        ['Plan d’ouverture', 'plan large, lent travelling avant ; pose le lieu et l’ambiance'],
        ['Le sujet', 'plan moyen ; l’action principale'],
        ['Image finale', 'gros plan, fixe ; la phrase ou le logo'],
      ],
      seconds: (n) => `${n} s`,
      brief: 'Brief',
      briefSections: [
        ['Objectif', 'Ce que le travail doit accomplir.'],
        ['Public', 'À qui il s’adresse.'],
        ['Ton', 'L’impression qu’il doit donner.'],
        ['Livrables', 'Ce qui est livré, et dans quels formats.'],
      ],
      firstDraft: (s) => `Un premier jet pour : ${s}.`,
      fromTemplate: 'rédigé à partir d’un modèle fixe',
    },
  },
};
