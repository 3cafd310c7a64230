// Chinese (simplified) message templates.
import { subjectWords } from './facts.ts';
import { clip, formatDate, formatMoney, quote } from './languages.ts';
import type { Fact, FactKind, ObjectKindName, SourceKindName, OfflinePlanKind, GenerationKindName, OfflineStep, PaidWork, SteerSignal, TaskStateView, Texts } from './types.ts';

const q = (s: string) => quote('zh', s);
const money = (c: number) => formatMoney('zh', c);

function fact(f: Fact): string {
  const v = f.value;
  const by: Record<FactKind, string> = {
    brandColor: `我们的品牌色是${v}`,
    brandFont: `我们的品牌字体是${v}`,
    brandTone: `我们的品牌语调是${v}`,
    brandLogo: `我们的标志是${v}`,
    brandTagline: `我们的口号是${v}`,
    companyName: `我们的公司名叫${v}`,
    companyLocation: `你们的工作室在${v}`,
    signature: `你的署名是${v}`,
    residence: `你住在${v}`,
    name: `你叫${v}`,
    work: `你的工作：${v}`,
    prefer: `你偏好${v}`,
    avoid: `你想避免${v}`,
    habit: `你总是${v}`,
    other: `${subjectWords(f.subject)}：${v}`,
  };
  return by[f.kind];
}

const LABEL: Record<FactKind, string> = {
  brandColor: '品牌色',
  brandFont: '品牌字体',
  brandTone: '品牌语调',
  brandLogo: '标志',
  brandTagline: '口号',
  companyName: '公司名称',
  companyLocation: '工作室',
  signature: '署名',
  residence: '居住地',
  name: '你的名字',
  work: '你的工作',
  prefer: '你偏好',
  avoid: '你避免',
  habit: '你总是',
  other: '已记住',
};

const VERB: Record<SteerSignal, string> = { CANCEL: '停止', PAUSE: '暂停', RESUME: '继续' };
const OBJECT: Record<ObjectKindName, string> = { IMAGE: '图片', VIDEO: '视频', AUDIO: '音频', MODEL_3D: '3D 模型', DOCUMENT: '文档', COLLECTION: '合集', FLOW: '流程' };
const SOURCE: Record<SourceKindName, string> = { MESSAGE: '一条消息', NOTE: '一条备注', OBSERVATION: '一条观察' };
const PLAN: Record<OfflinePlanKind, string> = { 'poster-series': '海报系列', 'image-series': '图片系列', image: '图片', 'image-to-video': '由图片生成视频', audio: '音频', '3d': '3D 模型', video: '视频', storyboard: '分镜', document: '文档', change: '修改', resume: '继续' };
const plan = (k: string) => PLAN[k as OfflinePlanKind] ?? k;

function state(s: TaskStateView): string {
  switch (s.kind) {
    case 'paused':
      return `已暂停${s.reason ? `（${s.reason}）` : ''}`;
    case 'decision':
      return `正在等你决定：${s.title}`;
    case 'generating':
      return `正在生成（${s.running} 个进行中）`;
    case 'waiting':
      return '正在等待';
    case 'working':
      return '正在进行';
    case 'queued':
      return '即将继续';
    case 'completed':
      return '已完成';
    case 'failed':
      return `失败了${s.reason ? `（${s.reason}）` : ''}`;
    case 'cancelled':
      return '已取消';
    case 'budget':
      return '已达到预算上限而停止';
  }
}

function paidWork(p: PaidWork): string {
  const parts: string[] = [];
  if (p.runningJobs) parts.push(`${p.runningJobs} 个生成任务正在进行`);
  if (p.heldCents) parts.push(`已预留 ${money(p.heldCents)}`);
  if (p.approvedCents) parts.push(`已批准 ${money(p.approvedCents)} 的预算`);
  return parts.join('，');
}

const KIND: Record<GenerationKindName, string> = { IMAGE: '一张图片', VIDEO: '一段短视频', AUDIO: '一段音频', MODEL_3D: '一个 3D 模型' };

function step(s: OfflineStep): string {
  switch (s.step) {
    case 'lookCandidates':
      return '风格候选';
    case 'pickDirection':
      return '选定方向';
    case 'poster':
      return `海报 ${s.n}`;
    case 'image':
      return s.n === null ? '图片' : `图片 ${s.n}`;
    case 'storyboard':
      return '分镜';
    case 'confirmStoryboard':
      return '确认分镜';
    case 'character':
      return '角色设定';
    case 'setting':
      return '场景';
    case 'finalCut':
      return '成片剪辑';
    case 'shot':
      return `镜头 ${s.n}`;
    case 'referenceImage':
      return '参考图';
    case 'videoFromImage':
      return '由图片生成视频';
    case 'audioClip':
      return '音频片段';
    case 'model3d':
      return '3D 模型';
    case 'brief':
      return '简报';
    case 'text':
      return '文本';
  }
}

export const zh: Texts = {
  lang: 'zh',
  money,
  date: (d) => formatDate('zh', d),
  q,

  greeting: '你好！我们今天做点什么？',
  thanks: '不客气。',
  help: (offline) =>
    '告诉我要做什么——一组海报、一张图片、一段短视频、一个 3D 模型、一段声音、一份分镜或简报——我会开始一个任务，并在这里随时告诉你进展。' +
    '你也可以问我在做什么、某个任务进展如何（“视频做得怎么样了？”），让我停止、暂停或继续某个任务（“暂停海报”），' +
    '或者告诉我需要记住的事（“我们的品牌色是青色”）。' +
    (offline ? '目前没有配置语言模型，我按固定规则工作，并会如实说明。' : ''),
  cannotAnswer: (offline) =>
    offline
      ? '这个我回答不了：没有配置语言模型，所以我只能根据已保存的内容回答——正在进行的工作、任务的进展，以及你让我记住的事。'
      : '这个问题我没有答案。',
  nothingInProgress: '目前没有进行中的工作。告诉我你想做什么，我就开始一个任务。',
  workingOn: (lines) => ['我正在做这些：', ...lines.map((l) => `• ${l}`)].join('\n'),

  status: (title, s) => `${q(title)}${state(s)}。`,
  progress: (done, total, next) => `已完成 ${done}/${total} 步${next ? `；下一步：${next}` : ''}。`,
  cost: (cents) => `目前花费：${money(cents)}。`,

  delivered: (title, said) => `好的，我会在${q(title)}里处理：${q(clip(said, 60))}。`,
  started: (title) => `好的，我已开始${q(title)}。`,
  followUp: (ended, title) => `${q(ended)}已经结束，所以我开始了一个后续任务：${q(title)}。`,

  remembered: (facts) => `记下了——我会记住：${facts.map(fact).join('；')}。`,
  nothingToRemember: '记下了。不过我没找到需要长期记住的内容；可以这样说：“我们的品牌色是……”。',
  recalled: (facts) => facts.map((f) => `${LABEL[f.kind]}：${f.value}（你在${formatDate('zh', f.since)}告诉我的）。`).join('\n'),
  recallUnknown: '我没有记住这个。告诉我（“我们的品牌色是……”），我就会记住。',
  recalledEpisodes: (episodes) => ['之前的工作记录：', ...episodes.map((e) => `- ${formatDate('zh', e.day)}，${e.task ? `在${q(e.task)}中` : '在我们的对话中'}：${LABEL[e.kind]}：${e.value} [${e.cites}]`)].join('\n'),

  steered: (signal, title, result) => {
    if (result === 'ended') return `${q(title)}已经结束，无需${VERB[signal]}。`;
    if (result === 'already') return signal === 'RESUME' ? `${q(title)}已在进行中。` : signal === 'PAUSE' ? `${q(title)}已经暂停了。` : `${q(title)}已经停止了。`;
    return signal === 'RESUME' ? `已继续${q(title)}。` : signal === 'PAUSE' ? `已暂停${q(title)}。需要继续时告诉我。` : `已停止${q(title)}。`;
  },
  confirmCancel: (title, paid) => `停止${q(title)}会放弃已付费的工作：${paidWork(paid)}。仍然停止吗？`,
  confirmYes: (signal) => `是的，${VERB[signal]}`,
  confirmNo: '不，继续做',
  kept: (title) => `好的，${q(title)}继续进行。`,
  whichTask: (signal) => `要${VERB[signal]}哪个任务？`,
  steerOption: (signal, title) => `${VERB[signal]}${q(title)}`,
  nevermind: '算了',

  clarifyWhich: '这是哪个任务的？',
  clarifyMore: '能再具体说说你想要什么吗？',
  continueOption: (title) => `继续${q(title)}`,
  newTaskOption: '开始新任务',

  deliveredFallback: '已交付。',
  deliveredHeader: (done, total) => `已交付（${total} 步中完成 ${done} 步）：`,
  skipped: (l) => `已跳过：${l}`,
  noReason: '无原因',
  planTitle: (steps, cents) => `计划：${steps} 步，预计 ${money(cents)}`,
  impactTitle: (input, n, cents) => `“${input}”已更改：以 ${money(cents)} 重新制作由它生成的 ${n} 个结果？`,
  impactRemake: (step, input, cents) => `重新制作“${step}”（${money(cents)}）：它基于之前的“${input}”。`,
  impactKeeps: (list) => `保持不变：${list}。`,
  impactWaits: (list) => `尚未制作，将使用新版本：${list}。`,
  changedPlanTitle: (steps, budget, spent) => `计划已更改：${steps} 步，预算 ${money(budget)}（已花费 ${money(spent)}）`,
  planReasonNew: '新计划需要先批准才开始工作。',
  planReasonAgain: '自批准以来，计划的付费结果或费用增加了。',
  generateTitle: (kind, cents, prompt) => `生成${KIND[kind]}（${money(cents)}）：${q(prompt)}`,
  checkpointReason: '需要你的决定才能继续。',
  approvalReason: (r) => {
    switch (r.code) {
      case 'AUTONOMY_MANUAL':
        return '自主级别设为手动：每个付费操作都需要确认。';
      case 'CREDENTIAL_CONFIRMS_EACH':
        return '此任务通过一个集成启动，其付费操作需要逐一确认。';
      case 'PLAN_BUDGET':
        return `这会使任务的花费达到 ${money(r.totalCents)}，超过已批准的计划预算 ${money(r.budgetCents)}。`;
      case 'PER_ACTION_LIMIT':
        return `${money(r.quoteCents)} 超过了每次操作免确认的额度 ${money(r.freeCents)}。`;
      case 'DAILY_LIMIT':
        return `今天的付费操作将达到 ${money(r.totalCents)}，超过每天免确认的额度 ${money(r.freeCents)}。`;
    }
  },
  supersededNote: (by, said) => `已因${{ REVISE: '你的修改', ADD_CONTEXT: '你补充的背景', MESSAGE: '你的消息' }[by]}而搁置：${q(said)}`,
  budgetCapReason: (quote, total, cap) => `此操作（${money(quote)}）会使任务的花费达到 ${money(total)}，超过其预算上限 ${money(cap)}。`,
  capRaiseTitle: (from, to) => `此任务已达到预算上限 ${money(from)}。提高到 ${money(to)} 并继续？`,
  noLongerNeeded: '已不再需要：在当前限额之内。',
  stepReopened: (reason) => `已重新打开：${reason}`,
  stepDropped: (reason) => `已从计划中移除：${reason}`,
  earlierResults: (list) => `之前的结果：${list}`,
  staleBecause: (input) => `基于之前的“${input}”制作，而它已更改`,
  staleRemade: (input) => `已重新制作：“${input}”已更改`,
  staleKept: '保持原样：有人选择在更改后保留它',
  personChose: (label, note) => `${label ? `已选择：“${label}”` : '已确认'}${note ? `：${note}` : ''}`,
  deleteObjectTitle: (kind, name) => `删除${OBJECT[kind]}${q(name)}`,
  deleteObjectReason: '删除对象后无法撤销。',
  forgetSourceTitle: (kind, day) => `忘记从${formatDate('zh', day)}的${SOURCE[kind]}中记住的一切${kind === 'MESSAGE' ? '（消息本身仍保留在聊天中）' : ''}`,
  forgetSourceReason: '被忘记的记忆、摘要和资料条目无法恢复。',
  forgetMemoryTitle: (kind, key) => `忘记一条记忆：${kind === 'other' ? subjectWords(key) : LABEL[kind]}`,
  forgetMemoryReason: '被忘记的记忆无法恢复。',
  forgetWorksReason: (n) => `它还出现在你的 ${n} 个作品中；忘记之后，你可以从你选择的作品中删除它。`,
  worksRemovedMarker: '[已删除]',
  worksRedactedSummary: '删除了你要求忘记的内容',
  worksWithheldLabel: '[已隐藏]',
  worksWithheldMessage: '已隐藏：此版本包含你要求忘记的内容。',

  taskState: {
    paused: (r) => (r ? `已暂停：${r}` : '已暂停'),
    completed: '已完成',
    cancelled: (r) => (r ? `已取消：${r}` : '已取消'),
    failed: (r) => (r ? `失败：${r}` : '失败'),
    budgetExceeded: '已停止：已达到预算上限',
    needsPerson: (q) => `需要有人在 Atelier 中做决定：${q}`,
    waiting: (r) => (r ? `等待中：${r}` : '等待中'),
    working: '进行中',
    queued: '即将继续',
  },
  escalation: {
    repeatedDenial: (tool, scope) => `智能体在被拒绝后再次尝试了“${tool}”${scope ? `：它需要“${scope}”权限，而工作区的所有者没有授予它` : ''}。`,
    unknownOutcome: (tool) => `智能体无法确定“${tool}”是否已生效：调用过程中工作被中断了。`,
    ask: '智能体可以不做这一步继续吗，还是由你亲自来做？请告诉它如何继续。',
    verify: '请检查它是否已生效，并把你看到的情况告诉智能体。',
    escalate: '需要一位所有者查看智能体尝试做的事。请告诉它如何继续。',
  },
  mcp: {
    callTitle: (tool, server) => `允许智能体使用 ${q(server)} 的 ${q(tool)} 吗？`,
    paidCallTitle: (tool, server, cents) => `以 ${money(cents)} 使用 ${q(server)} 的 ${q(tool)} 吗？`,
    destructiveReason: '服务器将此工具标记为破坏性操作：其结果可能无法撤销。',
    untrustedReason: '该服务器不受信任，而此工具可能会更改内容。',
    declined: '有人未允许此调用；没有发送任何内容。',
    notActive: (server) => `MCP 服务器 ${q(server)} 未启用；没有发送任何内容。`,
    unreachable: (server) => `无法连接 MCP 服务器 ${q(server)}。没有发送任何内容。`,
    egressDenied: (server, host) => `不能连接 MCP 服务器 ${q(server)}：此工作区不允许调用 ${host}（egress）。没有发送任何内容。所有者可以允许该主机。`,
    withdrawn: (tool, server) => `${q(server)} 已不再提供工具 ${q(tool)}；没有发送任何内容。`,
    changed: (server, what) => `MCP 服务器 ${q(server)} 更改了它的工具（${what}）；需要所有者批准此更改。没有发送任何内容。`,
    toolError: (text) => `工具报告了错误：${text || '未提供详情'}`,
    noAnswer: (server, detail) => `MCP 服务器 ${q(server)} 未完成此调用：${detail}`,
    outputMismatch: (problems) => `工具返回的结果与其声明的输出不符：${problems}`,
    taskGone: (server) => `MCP 服务器 ${q(server)} 已不再知道此调用所对应的任务；不确定它是否已生效。再次调用前请先核实。`,
    taskEnded: (_server, status) => `MCP 服务器为此调用创建的任务未产生结果就结束了（${status}）。`,
    charged: (cents) => `已收取其费用 ${money(cents)}：服务器可能已完成工作。`,
    chargedUnknown: (cents) => `已收取其费用 ${money(cents)}（仅一次）：此调用可能已经发生。再次调用前请先核实——新的调用会再次收费。`,
    notCharged: '未收取任何费用。',
  },
  offline: {
    tag: '[离线模型]',
    cannotReason: (recorded) => `没有配置模型，我无法推理（请设置 OPENAI_API_KEY 或 OPENAI_BASE_URL）。已记录：${recorded}`,
    usingTool: (tool) => `正在调用 ${tool}。`,
    toolAnswered: (tool, answer) => `${tool} 的回答：${answer}`,
    toolFailed: (tool, error) => `${tool} 没有成功：${error}`,
    toolNeedsInput: (tool, missing) => `${tool} 需要 ${missing}；请用引号写出，例如 ${tool} "…"。`,
    noRequest: '（没有请求）',
    planning: '按固定规则制定计划。',
    declined: '计划被拒绝了。我应该改什么？',
    choose: (s) => `${s}：其余的应以哪一个为准？`,
    confirm: (s) => `${s}——要继续吗？`,
    changeWhat: (s) => `「${s}」都不合适？告诉我要改什么，我再做一次。`,
    candidate: (n) => `候选 ${String.fromCharCode(64 + n)}`,
    allDone: '所有步骤都已完成。',
    deliveredList: (l) => `已交付：${l}`,
    planningAgain: (said) => `根据你说的内容重新规划：${said}`,
    revise: (title) => `修改${title}`,
    step,
    planned: (k) => `制定计划：${plan(k)}，按固定规则。`,
    reopening: (t) => `方向已更改：重新打开${t}。`,
    generating: (t) => `正在生成${t}。`,
    writing: (t) => `正在按模板撰写${t}。`,
    reading: (t) => `修改前先读取${t}。`,
    updating: (t) => `正在按新方向更新${t}。`,
    followsDirection: (t) => `${t}已按新方向调整。`,
    planReason: (k) => `离线计划（${plan(k)}）`,
    revisedReason: (s) => `已修改：${s}`,
    contextReason: (s) => `补充了背景：${s}`,
    directionReason: (d) => `方向更改：${d ?? '已修改'}`,
    writtenEvidence: '按模板撰写',
    updatedEvidence: '已按新方向更新',
    nothingToGenerate: '此步骤无需生成内容',
    variant: (n, of) => `（第 ${n} 版，共 ${of} 版）`,
    inTheLookOf: (c) => `——沿用${c}的风格`,
    document: {
      directionPrefix: '方向：',
      asBriefed: '按简报',
      storyboard: '分镜',
      shot: (n, h) => `镜头 ${n}：${h}`,
      shots: [
        ['开场镜头', '远景，缓慢推进；交代地点和氛围'],
        ['主体', '中景；主要动作'],
        ['结尾画面', '特写，定格；标语或标志'],
      ],
      seconds: (n) => `${n} 秒`,
      brief: '简报',
      briefSections: [
        ['目标', '这项工作必须达成什么。'],
        ['受众', '面向谁。'],
        ['语调', '应给人什么感觉。'],
        ['交付物', '交付什么，采用哪些格式。'],
      ],
      firstDraft: (s) => `初稿：${s}。`,
      fromTemplate: '按固定模板撰写',
    },
  },
};
