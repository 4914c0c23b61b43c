import type { Catalogue } from "./types";

// Laptop-first layout (issue 21, item 5): collapsible panels, the pane splitter, the next screen
// beside the current one, the review's compact mode. These settings are the person's, kept on the server.
const en = {
  "layout.legendCollapse": "Hide the legend and zoom column",
  "layout.legendExpand": "Show the legend and zoom column",
  "layout.splitter": "Width of the step form",
  "layout.splitterHint":
    "Drag, or use ← and → (Home, End), to give the screenshot or the form more room. Your setting, kept on the server.",
  "layout.nextScreen": "Next screen",
  "layout.nextScreenHint": "Show the next step's screenshot beside this one, to judge whether the action worked.",
  "layout.nextScreenOf": "Step {n}: the screen after this step's action",
  "layout.nextScreenNone": "This is the last step: no screen follows.",
  "layout.settingHint": "Your setting, kept on the server: it follows you to any browser.",
  "review.compact": "Changed steps only",
  "review.compactHint": "Show changed or commented steps in full and every other step as one line.",
  "review.compactRow": "Step {n}, unchanged",
  "review.compactShow": "Show step {n}",
  "shortcut.nextScreen": "Show the next screen beside this one (toggle)",
} as const;

const zh: Catalogue<typeof en> = {
  "layout.legendCollapse": "隐藏图例和缩放栏",
  "layout.legendExpand": "显示图例和缩放栏",
  "layout.splitter": "步骤表单宽度",
  "layout.splitterHint": "拖动，或用 ← 和 →（Home、End）调整截图与表单的宽度。个人设置，保存在服务器上。",
  "layout.nextScreen": "下一屏",
  "layout.nextScreenHint": "在当前截图旁显示下一步的截图，以判断操作是否生效。",
  "layout.nextScreenOf": "第 {n} 步：执行本步操作后的屏幕",
  "layout.nextScreenNone": "这是最后一步，之后没有屏幕。",
  "layout.settingHint": "个人设置，保存在服务器上，换浏览器也会保留。",
  "review.compact": "只看有改动的步骤",
  "review.compactHint": "有改动或评论的步骤完整显示，其余每步只占一行。",
  "review.compactRow": "第 {n} 步，未改动",
  "review.compactShow": "显示第 {n} 步",
  "shortcut.nextScreen": "在旁边显示下一屏（切换）",
};

export const layout = { en, zh };
