import type { Catalogue } from "./types";

// Server error messages in the person's language (lib/server/errors.ts `appError`, mapped in http.ts).
const en = {
  "error.internal": "Something went wrong on the server; it has been logged.",
  "error.network": "The studio cannot be reached. Check the connection and try again.",
  "error.httpStatus": "The server answered {status}. Try again in a moment.",
  "error.invalidInput": "Invalid input: {detail}",
  "error.invalidJson": "The request body is not valid JSON.",
  "error.signIn": "Sign in, or send an API token as Authorization: Bearer <token>.",
  "error.crossSite": "Cross-site request refused: it did not come from this studio.",
  "error.roleForbidden": "Your role ({role}) may not do this ({action}).",
  "error.trajectoryMissing": "trajectory {id} does not exist",
  "error.stepMissing": "Step {id} does not exist.",
  "error.screenshotMissing": "Screenshot {id} is not in the store.",
  "error.notEditable": "This trajectory is “{status}”; it can be edited again once a reviewer sends it back.",
  "error.cannotSubmit": "A trajectory that is “{status}” cannot be submitted.",
  "error.notReady": "Not ready to submit: {where}",
  "error.notReadyOutcome": "the task outcome is not set.",
  "error.notReadyMore": "{first} ({n} more)",
  "error.cutPastEnd": "The cut after step {n} is past the last step ({last}).",
  "error.stepConflict": "Step {n} was saved by someone else since you opened it (now version {now}, yours {yours}).",
  "error.stepConflictNow": "Step {n} was saved by someone else a moment ago.",
  "error.trajectoryConflict": "This trajectory was saved by someone else since you opened it (now version {now}, yours {yours}).",
  "error.trajectoryConflictNow": "This trajectory was saved by someone else a moment ago.",
} as const;

const zh: Catalogue<typeof en> = {
  "error.internal": "服务器出错了，错误已记录。",
  "error.network": "无法连接到工作室，请检查网络后重试。",
  "error.httpStatus": "服务器返回 {status}，请稍后重试。",
  "error.invalidInput": "输入无效：{detail}",
  "error.invalidJson": "请求内容不是有效的 JSON。",
  "error.signIn": "请先登录，或以 Authorization: Bearer <token> 发送 API 令牌。",
  "error.crossSite": "已拒绝跨站请求：请求并非来自本工作室。",
  "error.roleForbidden": "你的角色（{role}）无权执行此操作（{action}）。",
  "error.trajectoryMissing": "轨迹 {id} 不存在",
  "error.stepMissing": "步骤 {id} 不存在。",
  "error.screenshotMissing": "截图 {id} 不在存储中。",
  "error.notEditable": "此轨迹当前为“{status}”；审核人退回后才能再次编辑。",
  "error.cannotSubmit": "状态为“{status}”的轨迹不能提交。",
  "error.notReady": "还不能提交：{where}",
  "error.notReadyOutcome": "尚未设置任务结果。",
  "error.notReadyMore": "{first}（另有 {n} 项）",
  "error.cutPastEnd": "截断点（第 {n} 步之后）超出了最后一步（第 {last} 步）。",
  "error.stepConflict": "第 {n} 步在你打开后已被他人保存（当前版本 {now}，你的版本 {yours}）。",
  "error.stepConflictNow": "第 {n} 步刚刚被他人保存。",
  "error.trajectoryConflict": "此轨迹在你打开后已被他人保存（当前版本 {now}，你的版本 {yours}）。",
  "error.trajectoryConflictNow": "此轨迹刚刚被他人保存。",
};

export const errors = { en, zh };
