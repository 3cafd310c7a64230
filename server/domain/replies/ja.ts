// Japanese message templates (polite form).
import { subjectWords } from './facts.ts';
import { clip, formatDate, formatMoney, quote } from './languages.ts';
import type { Fact, FactKind, ObjectKindName, SourceKindName, OfflinePlanKind, GenerationKindName, OfflineStep, PaidWork, SteerSignal, TaskStateView, Texts } from './types.ts';

const q = (s: string) => quote('ja', s);
const money = (c: number) => formatMoney('ja', c);

function fact(f: Fact): string {
  const v = f.value;
  const by: Record<FactKind, string> = {
    brandColor: `ブランドカラーは${v}`,
    brandFont: `ブランドフォントは${v}`,
    brandTone: `ブランドのトーンは${v}`,
    brandLogo: `ロゴは${v}`,
    brandTagline: `キャッチコピーは${v}`,
    companyName: `会社名は${v}`,
    companyLocation: `スタジオは${v}にあります`,
    signature: `署名は${v}`,
    residence: `お住まいは${v}`,
    name: `お名前は${v}`,
    work: `お仕事は${v}`,
    prefer: `${v}がお好み`,
    avoid: `${v}は避けたい`,
    habit: `いつも${v}`,
    other: `${subjectWords(f.subject)}：${v}`,
  };
  return by[f.kind];
}

const LABEL: Record<FactKind, string> = {
  brandColor: 'ブランドカラー',
  brandFont: 'ブランドフォント',
  brandTone: 'ブランドのトーン',
  brandLogo: 'ロゴ',
  brandTagline: 'キャッチコピー',
  companyName: '会社名',
  companyLocation: 'スタジオ',
  signature: '署名',
  residence: 'お住まい',
  name: 'お名前',
  work: 'お仕事',
  prefer: 'お好み',
  avoid: '避けたいもの',
  habit: 'いつも',
  other: '記憶',
};

const VERB: Record<SteerSignal, string> = { CANCEL: '止め', PAUSE: '一時停止し', RESUME: '再開し' };
const OBJECT: Record<ObjectKindName, string> = { IMAGE: '画像', VIDEO: '動画', AUDIO: '音声', MODEL_3D: '3D モデル', DOCUMENT: 'ドキュメント', COLLECTION: 'コレクション', FLOW: 'フロー' };
const SOURCE: Record<SourceKindName, string> = { MESSAGE: 'メッセージ', NOTE: 'メモ', OBSERVATION: '観察' };
const PLAN: Record<OfflinePlanKind, string> = { 'poster-series': 'ポスターシリーズ', 'image-series': '画像シリーズ', image: '画像', 'image-to-video': '画像から動画', audio: '音声', '3d': '3D モデル', video: '動画', storyboard: '絵コンテ', document: 'ドキュメント', change: '変更', resume: '続き' };
const plan = (k: string) => PLAN[k as OfflinePlanKind] ?? k;
const VERB_PLAIN: Record<SteerSignal, string> = { CANCEL: '止める', PAUSE: '一時停止する', RESUME: '再開する' };

function state(s: TaskStateView): string {
  switch (s.kind) {
    case 'paused':
      return `は一時停止中です${s.reason ? `（${s.reason}）` : ''}`;
    case 'decision':
      return `はあなたの判断を待っています：${s.title}`;
    case 'generating':
      return `は生成中です（${s.running} 件実行中）`;
    case 'waiting':
      return 'は待機中です';
    case 'working':
      return 'は作業中です';
    case 'queued':
      return 'はまもなく再開します';
    case 'completed':
      return 'は完了しました';
    case 'failed':
      return `は失敗しました${s.reason ? `（${s.reason}）` : ''}`;
    case 'cancelled':
      return 'はキャンセルされました';
    case 'budget':
      return 'は予算上限に達したため停止しました';
  }
}

function paidWork(p: PaidWork): string {
  const parts: string[] = [];
  if (p.runningJobs) parts.push(`${p.runningJobs} 件の生成が実行中`);
  if (p.heldCents) parts.push(`${money(p.heldCents)} を確保済み`);
  if (p.approvedCents) parts.push(`${money(p.approvedCents)} の予算が承認済み`);
  return parts.join('、');
}

const KIND: Record<GenerationKindName, string> = { IMAGE: '画像', VIDEO: '短い動画', AUDIO: '音声クリップ', MODEL_3D: '3D モデル' };

function step(s: OfflineStep): string {
  switch (s.step) {
    case 'lookCandidates':
      return 'テイストの候補';
    case 'pickDirection':
      return '方向性を選ぶ';
    case 'poster':
      return `ポスター ${s.n}`;
    case 'image':
      return s.n === null ? '画像' : `画像 ${s.n}`;
    case 'storyboard':
      return '絵コンテ';
    case 'confirmStoryboard':
      return '絵コンテの確認';
    case 'character':
      return 'キャラクター設定';
    case 'setting':
      return '舞台';
    case 'finalCut':
      return '最終編集';
    case 'shot':
      return `カット ${s.n}`;
    case 'referenceImage':
      return '参考画像';
    case 'videoFromImage':
      return '画像から動画';
    case 'audioClip':
      return '音声クリップ';
    case 'model3d':
      return '3D モデル';
    case 'brief':
      return 'ブリーフ';
    case 'text':
      return 'テキスト';
  }
}

export const ja: Texts = {
  lang: 'ja',
  money,
  date: (d) => formatDate('ja', d),
  q,

  greeting: 'こんにちは！何を作りましょうか？',
  thanks: 'どういたしまして。',
  help: (offline) =>
    '作りたいもの——ポスターのシリーズ、画像、短い動画、3D モデル、サウンド、絵コンテやブリーフ——を教えてください。タスクを始めて、進み具合をここでお知らせします。' +
    '作業中のものやタスクの進捗（「動画はどうなった？」）を聞いたり、タスクの停止・一時停止・再開（「ポスターを一時停止して」）を頼んだり、' +
    '覚えておいてほしいこと（「ブランドカラーはティールです」）を伝えたりもできます。' +
    (offline ? '言語モデルが設定されていないため、決まったルールで動いており、そのことをお伝えします。' : ''),
  cannotAnswer: (offline) =>
    offline
      ? 'それにはお答えできません。言語モデルが設定されていないため、保存されている内容——進行中の作業、タスクの進捗、覚えておくよう頼まれたこと——からしか答えられません。'
      : 'それについての答えはありません。',
  nothingInProgress: '現在進行中のものはありません。作りたいものを教えていただければ、タスクを始めます。',
  workingOn: (lines) => ['現在取り組んでいるのはこちらです：', ...lines.map((l) => `• ${l}`)].join('\n'),

  status: (title, s) => `${q(title)}${state(s)}。`,
  progress: (done, total, next) => `${total} ステップ中 ${done} 完了${next ? `、次は${q(next)}` : ''}。`,
  cost: (cents) => `これまでの費用：${money(cents)}。`,

  delivered: (title, said) => `承知しました。${q(title)}で対応します：${q(clip(said, 60))}。`,
  started: (title) => `了解です。${q(title)}を始めました。`,
  followUp: (ended, title) => `${q(ended)}はすでに終了していたため、続きのタスクを始めました：${q(title)}。`,

  remembered: (facts) => `承知しました。${facts.map(fact).join('、')}、と覚えておきます。`,
  nothingToRemember: '承知しました。ただ、覚えておくべき内容は見つかりませんでした。「ブランドカラーは…」のように伝えてください。',
  recalled: (facts) => facts.map((f) => `${LABEL[f.kind]}：${f.value}（${formatDate('ja', f.since)}に伺いました）。`).join('\n'),
  recallUnknown: 'それは覚えていません。教えていただければ（「ブランドカラーは…」）、覚えておきます。',
  recalledEpisodes: (episodes) => ['以前の作業の記録：', ...episodes.map((e) => `- ${formatDate('ja', e.day)}、${e.task ? `${q(e.task)}で` : 'このスレッドで'}：${LABEL[e.kind]}：${e.value} [${e.cites}]`)].join('\n'),

  steered: (signal, title, result) => {
    if (result === 'ended') return `${q(title)}はすでに終了しています。`;
    if (result === 'already') return signal === 'RESUME' ? `${q(title)}はすでに進行中です。` : signal === 'PAUSE' ? `${q(title)}はすでに一時停止中です。` : `${q(title)}はすでに止まっています。`;
    return signal === 'RESUME' ? `${q(title)}を再開しました。` : signal === 'PAUSE' ? `${q(title)}を一時停止しました。再開するときはお知らせください。` : `${q(title)}を止めました。`;
  },
  confirmCancel: (title, paid) => `${q(title)}を止めると、支払い済みの作業が無駄になります：${paidWork(paid)}。それでも止めますか？`,
  confirmYes: (signal) => `はい、${VERB[signal]}てください`,
  confirmNo: 'いいえ、続けてください',
  kept: (title) => `わかりました。${q(title)}はそのまま続けます。`,
  whichTask: (signal) => `どのタスクを${VERB[signal]}ますか？`,
  steerOption: (signal, title) => `${q(title)}を${VERB_PLAIN[signal]}`,
  nevermind: 'やめておく',

  clarifyWhich: 'どのタスクについてですか？',
  clarifyMore: 'ご希望をもう少し詳しく教えていただけますか？',
  continueOption: (title) => `${q(title)}を続ける`,
  newTaskOption: '新しいタスクを始める',

  deliveredFallback: '納品しました。',
  deliveredHeader: (done, total) => `納品しました（${total} ステップ中 ${done} 完了）：`,
  skipped: (l) => `スキップ：${l}`,
  noReason: '理由なし',
  planTitle: (steps, cents) => `計画：${steps} ステップ、見積もり ${money(cents)}`,
  impactTitle: (input, n, cents) => `「${input}」が変更されました：それを元にした ${n} 件の結果を ${money(cents)} で作り直しますか？`,
  impactRemake: (step, input, cents) => `「${step}」を作り直す（${money(cents)}）：以前の「${input}」から作られました。`,
  impactKeeps: (list) => `そのまま：${list}。`,
  impactWaits: (list) => `まだ作っていないもの（新しい版を使います）：${list}。`,
  changedPlanTitle: (steps, budget, spent) => `計画の変更：${steps} ステップ、予算 ${money(budget)}（使用済み ${money(spent)}）`,
  planReasonNew: '新しい計画は作業を始める前に承認が必要です。',
  planReasonAgain: '承認後に、有料の成果物または費用が増えました。',
  generateTitle: (kind, cents, prompt) => `${KIND[kind]}を生成（${money(cents)}）：${q(prompt)}`,
  checkpointReason: '続けるにはあなたの判断が必要です。',
  approvalReason: (r) => {
    switch (r.code) {
      case 'AUTONOMY_MANUAL':
        return '自律レベルが手動に設定されています：有料の操作はすべて確認されます。';
      case 'CREDENTIAL_CONFIRMS_EACH':
        return 'このタスクは、有料の操作を一件ずつ確認する連携から開始されました。';
      case 'PLAN_BUDGET':
        return `これによりタスクの費用は ${money(r.totalCents)} になり、承認済みの計画の予算 ${money(r.budgetCents)} を超えます。`;
      case 'PER_ACTION_LIMIT':
        return `${money(r.quoteCents)} は、操作ごとの確認不要の金額 ${money(r.freeCents)} を超えています。`;
      case 'DAILY_LIMIT':
        return `本日の有料の操作は ${money(r.totalCents)} に達し、1日あたりの確認不要の金額 ${money(r.freeCents)} を超えます。`;
    }
  },
  supersededNote: (by, said) => `${{ REVISE: 'あなたの修正', ADD_CONTEXT: 'あなたが追加した情報', MESSAGE: 'あなたのメッセージ' }[by]}により保留になりました：${q(said)}`,
  budgetCapReason: (quote, total, cap) => `この操作（${money(quote)}）でタスクの費用が ${money(total)} になり、予算上限の ${money(cap)} を超えます。`,
  capRaiseTitle: (from, to) => `このタスクは予算上限の ${money(from)} に達しました。${money(to)} に上げて続けますか？`,
  noLongerNeeded: '不要になりました：現在の上限内です。',
  stepReopened: (reason) => `やり直し：${reason}`,
  stepDropped: (reason) => `計画から外しました：${reason}`,
  earlierResults: (list) => `以前の結果：${list}`,
  staleBecause: (input) => `以前の「${input}」から作られ、それが変更されました`,
  staleRemade: (input) => `作り直し：「${input}」が変更されました`,
  staleKept: 'そのまま：変更の後も残すことが選ばれました',
  personChose: (label, note) => `${label ? `選択：「${label}」` : '確認済み'}${note ? `：${note}` : ''}`,
  deleteObjectTitle: (kind, name) => `${OBJECT[kind]}${q(name)}を削除`,
  deleteObjectReason: 'オブジェクトの削除は元に戻せません。',
  forgetSourceTitle: (kind, day) => `${formatDate('ja', day)}の${SOURCE[kind]}から記憶したすべてを忘れる${kind === 'MESSAGE' ? '（メッセージ自体はチャットに残ります）' : ''}`,
  forgetSourceReason: '忘れた記憶、要約、プロフィール項目は復元できません。',
  forgetMemoryTitle: (kind, key) => `記憶を忘れる：${kind === 'other' ? subjectWords(key) : LABEL[kind]}`,
  forgetMemoryReason: '忘れた記憶は復元できません。',
  forgetWorksReason: (n) => `あなたの作品 ${n} 件にも含まれています。忘れた後、選んだ作品から削除できます。`,
  worksRemovedMarker: '[削除済み]',
  worksRedactedSummary: '忘れるよう頼まれた内容を削除しました',
  worksWithheldLabel: '[非表示]',
  worksWithheldMessage: '非表示：この版には、忘れるよう頼まれた内容が含まれていました。',

  taskState: {
    paused: (r) => (r ? `一時停止中：${r}` : '一時停止中'),
    completed: '完了',
    cancelled: (r) => (r ? `キャンセル済み：${r}` : 'キャンセル済み'),
    failed: (r) => (r ? `失敗：${r}` : '失敗'),
    budgetExceeded: '停止しました：予算の上限に達しました',
    needsPerson: (q) => `Atelier で人の判断が必要です：${q}`,
    waiting: (r) => (r ? `待機中：${r}` : '待機中'),
    working: '作業中',
    queued: 'まもなく再開します',
  },
  escalation: {
    repeatedDenial: (tool, scope) => `エージェントは拒否された後に「${tool}」をもう一度試みました${scope ? `。これには「${scope}」の権限が必要ですが、ワークスペースのオーナーはまだ与えていません` : ''}。`,
    unknownOutcome: (tool) => `エージェントは「${tool}」が実行されたかどうか判断できません。呼び出しの途中で作業が中断されました。`,
    ask: 'エージェントはこれなしで続けてよいですか、それともご自身で行いますか？どう続けるか伝えてください。',
    verify: '実行されたかどうかを確認し、分かったことをエージェントに伝えてください。',
    escalate: 'オーナーがエージェントの試みを確認してください。どう続けるか伝えてください。',
  },
  mcp: {
    callTitle: (tool, server) => `エージェントに ${q(server)} の ${q(tool)} を使わせますか？`,
    paidCallTitle: (tool, server, cents) => `${q(server)} の ${q(tool)} を ${money(cents)} で使いますか？`,
    destructiveReason: 'サーバーはこのツールを破壊的と示しています。実行内容は元に戻せない場合があります。',
    untrustedReason: 'このサーバーは信頼されておらず、このツールは何かを変更する可能性があります。',
    declined: 'この呼び出しは許可されませんでした。何も送信していません。',
    notActive: (server) => `MCP サーバー ${q(server)} は有効ではありません。何も送信していません。`,
    unreachable: (server) => `MCP サーバー ${q(server)} に接続できませんでした。何も送信していません。`,
    egressDenied: (server, host) => `MCP サーバー ${q(server)} には接続できません: このワークスペースでは ${host} への呼び出しが許可されていません (egress)。何も送信していません。オーナーはこのホストを許可できます。`,
    withdrawn: (tool, server) => `${q(server)} はツール ${q(tool)} を提供しなくなりました。何も送信していません。`,
    changed: (server, what) => `MCP サーバー ${q(server)} のツールが変わりました（${what}）。所有者の承認が必要です。何も送信していません。`,
    toolError: (text) => `ツールがエラーを報告しました：${text || '詳細なし'}`,
    noAnswer: (server, detail) => `MCP サーバー ${q(server)} は呼び出しを完了しませんでした：${detail}`,
    outputMismatch: (problems) => `ツールの結果が宣言された出力と一致しません：${problems}`,
    taskGone: (server) => `MCP サーバー ${q(server)} はこの呼び出しのタスクをもう把握していません。実行されたかどうかは不明です。再度呼び出す前に確認してください。`,
    taskEnded: (_server, status) => `この呼び出しの MCP サーバーのタスクは結果なしで終了しました（${status}）。`,
    charged: (cents) => `料金 ${money(cents)} を請求しました。サーバーが処理を行った可能性があります。`,
    chargedUnknown: (cents) => `料金 ${money(cents)} を一度だけ請求しました。呼び出しが実行された可能性があります。再度呼び出す前に確認してください（新しい呼び出しは再び請求されます）。`,
    notCharged: '請求はありません。',
  },
  offline: {
    tag: '[オフラインモデル]',
    cannotReason: (recorded) => `モデルが設定されていないため、推論できません（OPENAI_API_KEY または OPENAI_BASE_URL を設定してください）。記録しました：${recorded}`,
    usingTool: (tool) => `${tool} を呼び出します。`,
    toolAnswered: (tool, answer) => `${tool} の回答：${answer}`,
    toolFailed: (tool, error) => `${tool} はうまくいきませんでした：${error}`,
    toolNeedsInput: (tool, missing) => `${tool} には ${missing} が必要です。引用符で書いてください（例：${tool} "…"）。`,
    noRequest: '（依頼なし）',
    planning: '決まったルールで計画しています。',
    declined: '計画が却下されました。何を変えればよいですか？',
    choose: (s) => `${s}：残りはどれに合わせますか？`,
    confirm: (s) => `${s}——続けてもよいですか？`,
    changeWhat: (s) => `「${s}」はどれも違いますか？何を変えるか教えてください。作り直します。`,
    candidate: (n) => `候補 ${String.fromCharCode(64 + n)}`,
    allDone: 'すべてのステップが完了しました。',
    deliveredList: (l) => `納品：${l}`,
    planningAgain: (said) => `いただいた内容で計画し直します：${said}`,
    revise: (title) => `${title} を修正`,
    step,
    planned: (k) => `計画：${plan(k)}（決まったルールによる）。`,
    reopening: (t) => `方向転換：${t}をやり直します。`,
    generating: (t) => `${t}を生成しています。`,
    writing: (t) => `テンプレートから${t}を書いています。`,
    reading: (t) => `変更の前に${t}を読んでいます。`,
    updating: (t) => `新しい方向に合わせて${t}を更新しています。`,
    followsDirection: (t) => `${t}は新しい方向に沿っています。`,
    planReason: (k) => `オフラインの計画（${plan(k)}）`,
    revisedReason: (s) => `修正：${s}`,
    contextReason: (s) => `追加された情報：${s}`,
    directionReason: (d) => `方向転換：${d ?? '修正'}`,
    writtenEvidence: 'テンプレートから作成',
    updatedEvidence: '新しい方向に合わせて更新',
    nothingToGenerate: 'このステップで生成するものはありません',
    variant: (n, of) => `（${of} 案中 ${n} 案目）`,
    inTheLookOf: (c) => `——${c}のルックで`,
    document: {
      directionPrefix: '方向性：',
      asBriefed: 'ブリーフどおり',
      storyboard: '絵コンテ',
      shot: (n, h) => `カット ${n}：${h}`,
      shots: [
        ['導入カット', '引きの画、ゆっくりズームイン；場所と雰囲気を見せる'],
        ['被写体', 'ミディアムショット；メインの動き'],
        ['ラストカット', 'クローズアップで静止；コピーまたはロゴ'],
      ],
      seconds: (n) => `${n} 秒`,
      brief: 'ブリーフ',
      briefSections: [
        ['目的', 'この制作で達成すべきこと。'],
        ['対象', '誰に向けたものか。'],
        ['トーン', 'どう感じてほしいか。'],
        ['納品物', '何を、どの形式で納品するか。'],
      ],
      firstDraft: (s) => `初稿：${s}。`,
      fromTemplate: '固定テンプレートから作成',
    },
  },
};
