// Review flows of logos and chatbots and the auto-reply registration states, in
// one table each, so the routes and the admin API agree (docs/decisions.md,
// "Logos" and "Rooms"; the service reference, States and transitions).

/** Review actions the admin API can take. */
export type ReviewAction = 'start' | 'approve' | 'reject' | 'complete';

/** Logo, chatbot, template and brand page review: from-state → to-state, per action. */
const REVIEW: Record<ReviewAction, Record<string, string>> = {
  start: { 승인대기: '검수시작', '승인대기(수정)': '검수시작(수정)' },
  // The operator approves: carrier registration still pending (검수완료).
  approve: { 승인대기: '검수완료', 검수시작: '검수완료', '승인대기(수정)': '검수완료(수정)', '검수시작(수정)': '검수완료(수정)' },
  reject: { 승인대기: '반려', 검수시작: '반려', 검수완료: '반려', '승인대기(수정)': '반려(수정)', '검수시작(수정)': '반려(수정)', '검수완료(수정)': '반려(수정)' },
  // Carrier registration done; also from a pending or started review, as a shortcut.
  complete: { 승인대기: '승인', 검수시작: '승인', 검수완료: '승인', '승인대기(수정)': '승인', '검수시작(수정)': '승인', '검수완료(수정)': '승인' },
};

/** Auto-replies: start puts one in 처리중 (registration under way), complete/approve registers it, reject leaves it 저장. */
const AUTO_REPLY_REVIEW: Record<ReviewAction, Record<string, string>> = {
  start: { 등록완료: '처리중', 저장: '처리중' },
  approve: { 처리중: '등록완료', 저장: '등록완료' },
  complete: { 처리중: '등록완료', 저장: '등록완료' },
  reject: { 처리중: '저장', 등록완료: '저장' },
};

/** The state after a review action on an object reviewed the common way (logos, templates, brand pages), or undefined. */
export function standardReview(from: string, action: ReviewAction): string | undefined {
  return REVIEW[action][from];
}

/** The state after a review action, or undefined when the action does not apply. */
export function reviewTransition(kind: 'autoReply' | 'chatbot' | 'logo' | 'template', from: string, action: ReviewAction): string | undefined {
  const to = kind === 'autoReply' ? AUTO_REPLY_REVIEW[action][from] : standardReview(from, action);
  if (kind === 'chatbot') {
    // Rooms know no 반려(수정) (the reference lists only 반려), and no 검수시작(수정):
    // a modification's review is not started as a state of its own.
    if (to === '반려(수정)') return '반려';
    if (to === '검수시작(수정)') return undefined;
  }
  return to;
}

/** Every state each kind can be forced into (POST /_emulator/state). */
export const STATES = {
  autoReply: ['등록완료', '저장', '처리중'],
  // 검수시작(수정) belongs to logos only: the service reference lists no such room state.
  chatbot: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '검수완료(수정)', '승인대기(수정)'],
  logo: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '승인대기(수정)', '검수시작(수정)', '반려(수정)', '검수완료(수정)'],
  template: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '승인대기(수정)', '검수시작(수정)', '반려(수정)', '검수완료(수정)'],
} as const;

/** Chatbot update is allowed only in these states (the service reference, Chatbot update). */
export const CHATBOT_UPDATABLE = ['저장', '반려', '승인'];

/** Chatbot state after an update (docs/decisions.md, "Rooms"). */
export function chatbotAfterUpdate(from: string, subTitleChanged: boolean): string {
  if (from === '승인' && subTitleChanged) return '승인대기(수정)';
  if (from === '반려') return '승인대기';
  return from;
}

/** Logo modification is allowed only in these states (the service reference, Logo). */
export const LOGO_MODIFIABLE = ['저장', '반려', '반려(수정)', '승인'];

/** Logo state after a modification (docs/decisions.md, "Logos"). */
export function logoAfterModify(from: string): string {
  return from === '승인' ? '승인대기(수정)' : '승인대기';
}

/** State after a cancel (logos and chatbots), or undefined when nothing is pending. */
export function afterCancel(from: string): string | undefined {
  if (from === '승인대기') return '저장';
  if (from === '승인대기(수정)') return '승인';
  return undefined;
}

/** Template update and delete are allowed only in these states (the public OpenAPI document, template PUT and DELETE). */
export const TEMPLATE_CHANGEABLE = ['저장', '반려', '반려(수정)', '승인'];

/** Template state after a modification: an approved template (or a rejected modification of one) waits as 승인대기(수정). */
export function templateAfterModify(from: string): string {
  return from === '승인' || from === '반려(수정)' ? '승인대기(수정)' : '승인대기';
}

/** Template state after a cancel: 승인대기 → 저장; 승인대기(수정) and 반려(수정) roll back to 승인; otherwise undefined. */
export function templateAfterCancel(from: string): string | undefined {
  if (from === '승인대기') return '저장';
  if (from === '승인대기(수정)' || from === '반려(수정)') return '승인';
  return undefined;
}
