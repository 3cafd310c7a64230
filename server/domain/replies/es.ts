// Spanish message templates ("tú").
import { subjectWords } from './facts.ts';
import { clip, formatDate, formatMoney, quote } from './languages.ts';
import type { Fact, FactKind, ObjectKindName, SourceKindName, OfflinePlanKind, GenerationKindName, OfflineStep, PaidWork, SteerSignal, TaskStateView, Texts } from './types.ts';

const q = (s: string) => quote('es', s);
const money = (c: number) => formatMoney('es', c);
const list = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} y ${xs.at(-1)}`);

function fact(f: Fact): string {
  const v = f.value;
  const by: Record<FactKind, string> = {
    brandColor: `nuestro color de marca es ${v}`,
    brandFont: `nuestra tipografía de marca es ${v}`,
    brandTone: `el tono de nuestra marca es ${v}`,
    brandLogo: `nuestro logotipo es ${v}`,
    brandTagline: `nuestro eslogan es ${v}`,
    companyName: `nuestra empresa se llama ${v}`,
    companyLocation: `vuestro estudio está en ${v}`,
    signature: `firmas como ${v}`,
    residence: `vives en ${v}`,
    name: `te llamas ${v}`,
    work: `trabajas ${v}`,
    prefer: `prefieres ${v}`,
    avoid: `prefieres evitar ${v}`,
    habit: `siempre: ${v}`,
    other: `${subjectWords(f.subject)}: ${v}`,
  };
  return by[f.kind];
}

const LABEL: Record<FactKind, string> = {
  brandColor: 'Color de marca',
  brandFont: 'Tipografía de marca',
  brandTone: 'Tono de marca',
  brandLogo: 'Logotipo',
  brandTagline: 'Eslogan',
  companyName: 'Nombre de la empresa',
  companyLocation: 'Vuestro estudio',
  signature: 'Firma',
  residence: 'Dónde vives',
  name: 'Tu nombre',
  work: 'Tu trabajo',
  prefer: 'Prefieres',
  avoid: 'Evitas',
  habit: 'Siempre',
  other: 'Recordado',
};

const VERB: Record<SteerSignal, string> = { CANCEL: 'detener', PAUSE: 'pausar', RESUME: 'reanudar' };
const OBJECT: Record<ObjectKindName, string> = { IMAGE: 'la imagen', VIDEO: 'el vídeo', AUDIO: 'el audio', MODEL_3D: 'el modelo 3D', DOCUMENT: 'el documento', COLLECTION: 'la colección', FLOW: 'el flujo' };
const SOURCE: Record<SourceKindName, string> = { MESSAGE: 'un mensaje', NOTE: 'una nota', OBSERVATION: 'una observación' };
const PLAN: Record<OfflinePlanKind, string> = { 'poster-series': 'serie de carteles', 'image-series': 'serie de imágenes', image: 'imagen', 'image-to-video': 'vídeo a partir de una imagen', audio: 'audio', '3d': 'modelo 3D', video: 'vídeo', storyboard: 'guion gráfico', document: 'documento', change: 'cambio', resume: 'continuación' };
const plan = (k: string) => PLAN[k as OfflinePlanKind] ?? k;

function state(s: TaskStateView): string {
  switch (s.kind) {
    case 'paused':
      return `está en pausa${s.reason ? ` (${s.reason})` : ''}`;
    case 'decision':
      return `está esperando tu decisión: ${s.title}`;
    case 'generating':
      return `está generando (${s.running} en curso)`;
    case 'waiting':
      return 'está en espera';
    case 'working':
      return 'está en marcha';
    case 'queued':
      return 'continuará enseguida';
    case 'completed':
      return 'está terminada';
    case 'failed':
      return `ha fallado${s.reason ? ` (${s.reason})` : ''}`;
    case 'cancelled':
      return 'se ha cancelado';
    case 'budget':
      return 'se detuvo al alcanzar su tope de presupuesto';
  }
}

function paidWork(p: PaidWork): string {
  const parts: string[] = [];
  if (p.runningJobs) parts.push(p.runningJobs === 1 ? 'hay una generación en curso' : `hay ${p.runningJobs} generaciones en curso`);
  if (p.heldCents) parts.push(`hay ${money(p.heldCents)} retenidos`);
  if (p.approvedCents) parts.push(`hay un presupuesto aprobado de ${money(p.approvedCents)}`);
  return list(parts);
}

const KIND: Record<GenerationKindName, string> = { IMAGE: 'una imagen', VIDEO: 'un vídeo corto', AUDIO: 'un clip de audio', MODEL_3D: 'un modelo 3D' };

function step(s: OfflineStep): string {
  switch (s.step) {
    case 'lookCandidates':
      return 'Propuestas de estilo';
    case 'pickDirection':
      return 'Elegir una dirección';
    case 'poster':
      return `Cartel ${s.n}`;
    case 'image':
      return s.n === null ? 'Imagen' : `Imagen ${s.n}`;
    case 'storyboard':
      return 'Guion gráfico';
    case 'confirmStoryboard':
      return 'Confirmar el guion gráfico';
    case 'character':
      return 'Ficha del personaje';
    case 'setting':
      return 'Escenario';
    case 'finalCut':
      return 'Montaje final';
    case 'shot':
      return `Toma ${s.n}`;
    case 'referenceImage':
      return 'Imagen de referencia';
    case 'videoFromImage':
      return 'Vídeo a partir de la imagen';
    case 'audioClip':
      return 'Clip de audio';
    case 'model3d':
      return 'Modelo 3D';
    case 'brief':
      return 'Brief';
    case 'text':
      return 'Texto';
  }
}

export const es: Texts = {
  lang: 'es',
  money,
  date: (d) => formatDate('es', d),
  q,

  greeting: '¡Hola! ¿Qué creamos?',
  thanks: 'De nada.',
  help: (offline) =>
    'Dime qué hay que crear — una serie de carteles, una imagen, un vídeo corto, un modelo 3D, un sonido, un guion gráfico o un brief — y empiezo una tarea y te mantengo al tanto aquí. ' +
    'También puedes preguntar en qué estoy trabajando o cómo va una tarea («¿cómo va el vídeo?»), pedirme que detenga, pause o reanude una («pausa los carteles») ' +
    'y decirme cosas que recordar («nuestro color de marca es el verde azulado»).' +
    (offline ? ' No hay ningún modelo de lenguaje configurado: trabajo con reglas fijas y lo digo.' : ''),
  cannotAnswer: (offline) =>
    offline
      ? 'No puedo responder a eso: no hay ningún modelo de lenguaje configurado, así que solo respondo con lo que está guardado — lo que está en curso, cómo va una tarea y lo que me pediste recordar.'
      : 'No tengo respuesta para eso.',
  nothingInProgress: 'Ahora mismo no hay nada en curso. Dime qué te gustaría crear y empiezo una tarea.',
  workingOn: (lines) => ['Esto es en lo que estoy trabajando:', ...lines.map((l) => `• ${l}`)].join('\n'),

  status: (title, s) => `${q(title)} ${state(s)}.`,
  progress: (done, total, next) => `${done} de ${total} pasos hechos${next ? `; siguiente: ${next}` : ''}.`,
  cost: (cents) => `Coste hasta ahora: ${money(cents)}.`,

  delivered: (title, said) =>
    `Entendido — me encargo en ${q(title)}: ${q(clip(said))}.`,
  started: (title) => `En marcha — he empezado ${q(title)}.`,
  followUp: (ended, title) => `${q(ended)} ya había terminado, así que he empezado una continuación: ${q(title)}.`,

  remembered: (facts) => `Anotado — recordaré que ${list(facts.map(fact))}.`,
  nothingToRemember: 'Tomo nota, pero no he encontrado ningún dato que deba guardar; dímelo por ejemplo así: «nuestro color de marca es …».',
  recalled: (facts) => facts.map((f) => `${LABEL[f.kind]}: ${f.value} (me lo dijiste el ${formatDate('es', f.since)}).`).join('\n'),
  recallUnknown: 'No tengo eso guardado. Dímelo («nuestro color de marca es …») y lo recordaré.',
  recalledEpisodes: (episodes) => ['Del trabajo anterior:', ...episodes.map((e) => `- ${formatDate('es', e.day)}, ${e.task ? `en ${q(e.task)}` : 'en nuestro hilo'}: ${LABEL[e.kind]}: ${e.value} [${e.cites}]`)].join('\n'),

  steered: (signal, title, result) => {
    if (result === 'ended') return `${q(title)} ya ha terminado; no hay nada que ${VERB[signal]}.`;
    if (result === 'already') return signal === 'RESUME' ? `${q(title)} ya está en marcha.` : signal === 'PAUSE' ? `${q(title)} ya está en pausa.` : `${q(title)} ya estaba detenida.`;
    return signal === 'RESUME' ? `${q(title)} continúa.` : signal === 'PAUSE' ? `${q(title)} está en pausa. Dime cuándo reanudarla.` : `${q(title)} está detenida.`;
  },
  confirmCancel: (title, paid) => `Detener ${q(title)} abandonaría trabajo pagado: ${paidWork(paid)}. ¿La detengo de todos modos?`,
  confirmYes: (signal) => `Sí, ${VERB[signal]}`,
  confirmNo: 'No, que siga',
  kept: (title) => `De acuerdo — ${q(title)} sigue adelante.`,
  whichTask: (signal) => `¿Qué tarea debo ${VERB[signal]}?`,
  steerOption: (signal, title) => `${VERB[signal].charAt(0).toUpperCase()}${VERB[signal].slice(1)} ${q(title)}`,
  nevermind: 'Olvídalo',

  clarifyWhich: '¿Para qué tarea es esto?',
  clarifyMore: '¿Puedes contarme un poco más de lo que quieres?',
  continueOption: (title) => `Continuar ${q(title)}`,
  newTaskOption: 'Empezar una tarea nueva',

  deliveredFallback: 'Entregado.',
  deliveredHeader: (done, total) => `Entregado (${done} de ${total} pasos):`,
  skipped: (l) => `Omitido: ${l}`,
  noReason: 'sin motivo',
  planTitle: (steps, cents) => `Plan: ${steps} pasos, estimado en ${money(cents)}`,
  impactTitle: (input, n, cents) => `«${input}» ha cambiado: ¿rehacer ${n} resultado${n === 1 ? '' : 's'} hecho${n === 1 ? '' : 's'} a partir de ello por ${money(cents)}?`,
  impactRemake: (step, input, cents) => `Rehacer «${step}» (${money(cents)}): se hizo con el «${input}» anterior.`,
  impactKeeps: (list) => `Se queda como está: ${list}.`,
  impactWaits: (list) => `Aún no hecho, usará la nueva versión: ${list}.`,
  changedPlanTitle: (steps, budget, spent) => `Plan modificado: ${steps} pasos, presupuesto ${money(budget)} (${money(spent)} ya gastados)`,
  planReasonNew: 'Un plan nuevo se aprueba antes de empezar el trabajo.',
  planReasonAgain: 'El plan ha crecido en resultados de pago o en coste desde que se aprobó.',
  generateTitle: (kind, cents, prompt) => `Generar ${KIND[kind]} por ${money(cents)}: ${q(prompt)}`,
  checkpointReason: 'El agente necesita tu decisión para continuar.',
  approvalReason: (r) => {
    switch (r.code) {
      case 'AUTONOMY_MANUAL':
        return 'La autonomía está en manual: cada acción de pago se confirma.';
      case 'CREDENTIAL_CONFIRMS_EACH':
        return 'Esta tarea se inició desde una integración cuyas acciones de pago se confirman una por una.';
      case 'PLAN_BUDGET':
        return `Esto llevaría la tarea a ${money(r.totalCents)}, por encima del presupuesto del plan aprobado de ${money(r.budgetCents)}.`;
      case 'PER_ACTION_LIMIT':
        return `${money(r.quoteCents)} supera el importe sin confirmación de ${money(r.freeCents)} por acción.`;
      case 'DAILY_LIMIT':
        return `Las acciones de pago de hoy llegarían a ${money(r.totalCents)}, por encima de los ${money(r.freeCents)} sin confirmación por día.`;
    }
  },
  supersededNote: (by, said) => `Apartada por ${{ REVISE: 'tu revisión', ADD_CONTEXT: 'el contexto que añadiste', MESSAGE: 'el mensaje que enviaste' }[by]}: ${q(said)}`,
  budgetCapReason: (quote, total, cap) => `Esta acción (${money(quote)}) llevaría la tarea a ${money(total)}, por encima de su tope de presupuesto de ${money(cap)}.`,
  capRaiseTitle: (from, to) => `Esta tarea llegó a su tope de presupuesto de ${money(from)}. ¿Subirlo a ${money(to)} y continuar?`,
  noLongerNeeded: 'Ya no hace falta: dentro de los límites actuales.',
  stepReopened: (reason) => `reabierto: ${reason}`,
  stepDropped: (reason) => `quitado del plan: ${reason}`,
  earlierResults: (list) => `resultados anteriores: ${list}`,
  staleBecause: (input) => `hecho a partir de un «${input}» anterior, que ha cambiado`,
  staleRemade: (input) => `rehecho: «${input}» ha cambiado`,
  staleKept: 'se queda como estaba: una persona decidió conservarlo tras el cambio',
  personChose: (label, note) => `${label ? `elegido: «${label}»` : 'confirmado'}${note ? `: ${note}` : ''}`,
  deleteObjectTitle: (kind, name) => `Eliminar ${OBJECT[kind]} ${q(name)}`,
  deleteObjectReason: 'Eliminar un objeto no se puede deshacer.',
  forgetSourceTitle: (kind, day) => `Olvidar todo lo recordado de ${SOURCE[kind]} del ${formatDate('es', day)}${kind === 'MESSAGE' ? ' — el mensaje en sí sigue en el chat' : ''}`,
  forgetSourceReason: 'Los recuerdos, resúmenes y entradas de perfil olvidados no se pueden restaurar.',
  forgetMemoryTitle: (kind, key) => `Olvidar un recuerdo: ${kind === 'other' ? subjectWords(key) : LABEL[kind]}`,
  forgetMemoryReason: 'Un recuerdo olvidado no se puede restaurar.',
  forgetWorksReason: (n) => `También aparece en ${n === 1 ? 'una de tus obras' : `${n} de tus obras`}; después de olvidarlo podrás quitarlo de las que elijas.`,
  worksRemovedMarker: '[eliminado]',
  worksRedactedSummary: 'se quitó lo que pediste olvidar',
  worksWithheldLabel: '[retenido]',
  worksWithheldMessage: 'Retenido: esta versión contenía algo que pediste olvidar.',

  taskState: {
    paused: (r) => (r ? `En pausa — ${r}` : 'En pausa'),
    completed: 'Completada',
    cancelled: (r) => (r ? `Cancelada — ${r}` : 'Cancelada'),
    failed: (r) => (r ? `Fallida — ${r}` : 'Fallida'),
    budgetExceeded: 'Detenida: alcanzó el límite de presupuesto',
    needsPerson: (q) => `Necesita la decisión de una persona en Atelier: ${q}`,
    waiting: (r) => (r ? `En espera — ${r}` : 'En espera'),
    working: 'En curso',
    queued: 'Continúa en un momento',
  },
  escalation: {
    repeatedDenial: (tool, scope) => `El agente volvió a intentar «${tool}» después de que se rechazara${scope ? `: necesita el permiso «${scope}», que los propietarios del espacio no le han dado` : ''}.`,
    unknownOutcome: (tool) => `El agente no puede saber si «${tool}» se llevó a cabo: su trabajo se interrumpió a mitad de la llamada.`,
    ask: '¿Puede el agente seguir sin ello, o lo haces tú? Dile cómo continuar.',
    verify: 'Comprueba si se llevó a cabo y dile al agente lo que encontraste.',
    escalate: 'Un propietario debería revisar lo que intentó el agente. Dile cómo continuar.',
  },
  mcp: {
    callTitle: (tool, server) => `¿Permitir que el agente use ${q(tool)} de ${q(server)}?`,
    paidCallTitle: (tool, server, cents) => `¿Usar ${q(tool)} de ${q(server)} por ${money(cents)}?`,
    destructiveReason: 'El servidor marca esta herramienta como destructiva: lo que hace puede no deshacerse.',
    untrustedReason: 'El servidor no es de confianza y esta herramienta puede cambiar algo.',
    declined: 'Una persona no permitió esta llamada; no se envió nada.',
    notActive: (server) => `El servidor MCP ${q(server)} no está activo; no se envió nada.`,
    unreachable: (server) => `No se pudo contactar con el servidor MCP ${q(server)}. No se envió nada.`,
    egressDenied: (server, host) => `No se permite contactar con el servidor MCP ${q(server)}: las llamadas a ${host} no están permitidas en este espacio de trabajo (egress). No se envió nada. Un propietario puede permitir el host.`,
    withdrawn: (tool, server) => `${q(server)} ya no ofrece la herramienta ${q(tool)}; no se envió nada.`,
    changed: (server, what) => `El servidor MCP ${q(server)} cambió sus herramientas (${what}); un propietario debe aprobar el cambio. No se envió nada.`,
    toolError: (text) => `La herramienta informó de un error: ${text || 'sin detalles'}`,
    noAnswer: (server, detail) => `El servidor MCP ${q(server)} no completó la llamada: ${detail}`,
    outputMismatch: (problems) => `La herramienta respondió con un resultado que no coincide con su salida declarada: ${problems}`,
    taskGone: (server) => `El servidor MCP ${q(server)} ya no conoce la tarea de esta llamada; no se sabe si tuvo efecto. Compruébalo antes de volver a llamarla.`,
    taskEnded: (_server, status) => `La tarea del servidor MCP para esta llamada terminó sin resultado (${status}).`,
    charged: (cents) => `Su precio, ${money(cents)}, se cobró: el servidor puede haber hecho el trabajo.`,
    chargedUnknown: (cents) => `Su precio, ${money(cents)}, se cobró una vez: la llamada puede haberse realizado. Compruébalo antes de volver a llamarla: una nueva llamada se cobra de nuevo.`,
    notCharged: 'No se cobró nada.',
  },
  offline: {
    tag: '[modelo sin conexión]',
    cannotReason: (recorded) => `Sin un modelo configurado no puedo razonar (define OPENAI_API_KEY u OPENAI_BASE_URL). Lo he anotado: ${recorded}`,
    usingTool: (tool) => `Llamo a ${tool}.`,
    toolAnswered: (tool, answer) => `${tool} respondió: ${answer}`,
    toolFailed: (tool, error) => `${tool} no funcionó: ${error}`,
    toolNeedsInput: (tool, missing) => `${tool} necesita ${missing}; escríbelo entre comillas, p. ej. ${tool} "…".`,
    noRequest: '(sin petición)',
    planning: 'Planificando con reglas fijas.',
    declined: 'El plan fue rechazado. ¿Qué debo cambiar?',
    choose: (s) => `${s}: ¿cuál debe seguir el resto?`,
    confirm: (s) => `${s} — ¿sigo?`,
    changeWhat: (s) => `¿Nada sirve para «${s}»? Dime qué cambiar y lo vuelvo a hacer.`,
    candidate: (n) => `Propuesta ${String.fromCharCode(64 + n)}`,
    allDone: 'Todos los pasos están hechos.',
    deliveredList: (l) => `Entregado: ${l}`,
    planningAgain: (said) => `Vuelvo a planificar con lo que dijiste: ${said}`,
    revise: (title) => `Revisar ${title}`,
    step,
    planned: (k) => `Planificación: ${plan(k)}, con reglas fijas.`,
    reopening: (t) => `Cambio de dirección: reabro ${t}.`,
    generating: (t) => `Generando ${t}.`,
    writing: (t) => `Redactando a partir de una plantilla: ${t}.`,
    reading: (t) => `Leyendo antes de cambiarlo: ${t}.`,
    updating: (t) => `Actualizando según la nueva dirección: ${t}.`,
    followsDirection: (t) => `${t} sigue la nueva dirección.`,
    planReason: (k) => `plan sin conexión (${plan(k)})`,
    revisedReason: (s) => `revisado: ${s}`,
    contextReason: (s) => `con el contexto añadido: ${s}`,
    directionReason: (d) => `cambio de dirección: ${d ?? 'revisado'}`,
    writtenEvidence: 'redactado a partir de una plantilla',
    updatedEvidence: 'actualizado según la nueva dirección',
    nothingToGenerate: 'no hay nada que generar en este paso',
    variant: (n, of) => ` (variante ${n} de ${of})`,
    inTheLookOf: (c) => ` — con el estilo de ${c}`,
    document: {
      directionPrefix: 'Dirección: ',
      asBriefed: 'según el brief',
      storyboard: 'Guion gráfico',
      shot: (n, h) => `Plano ${n}: ${h}`,
      shots: [
        ['Plano de situación', 'plano general, travelling lento hacia delante; presenta el lugar y el ambiente'],
        ['El sujeto', 'plano medio; la acción principal'],
        ['Imagen final', 'primer plano, fijo; la frase o el logotipo'],
      ],
      seconds: (n) => `${n} s`,
      brief: 'Brief',
      briefSections: [
        ['Objetivo', 'Lo que el trabajo debe conseguir.'],
        ['Público', 'Para quién es.'],
        ['Tono', 'Qué sensación debe transmitir.'],
        ['Entregables', 'Qué se entrega y en qué formatos.'],
      ],
      firstDraft: (s) => `Un primer borrador para: ${s}.`,
      fromTemplate: 'redactado a partir de una plantilla fija',
    },
  },
};
