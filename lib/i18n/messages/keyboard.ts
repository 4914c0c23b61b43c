import type { Catalogue } from "./types";

// The keyboard (shortcut labels added for issue 10, the help overlay's notes, the verdict setting)
// and the submit flow's person-facing messages.
const en = {
  "shortcut.stepNextIncomplete": "Next incomplete step",
  "shortcut.outcomeSuccess": "Outcome: success",
  "shortcut.outcomeFailure": "Outcome: failure",
  "shortcut.discard": "Discard the trajectory (toggle)",
  "shortcut.inFields":
    "In a text field keys type text: only the Ctrl shortcuts work there, and Esc leaves the field. On a list, option, checkbox or button the shortcuts work as anywhere else and never change the focused control; Space presses a button, ticks a box or picks the focused option (over the screenshot, holding Space pans), Alt+↓ opens a list.",
  "shortcut.verdictAdvance": "A verdict key also goes to the next step",
  "shortcut.verdictAdvanceHint": "Your setting, kept on the server: it follows you to any browser.",
  "submit.blockedTitle": "Not ready to submit yet:",
  "submit.notYet": "Some steps or the outcome are still open; Submit lists them.",
  "submit.stepProblem": "Step {n}: {problem}",
  "submit.moreProblems": "… and {n} more.",
  "submit.unknownProblem": "something needs fixing ({code}).",
  "submit.done": "Submitted for review. Thank you!",
  "submit.doneHint": "A reviewer will look at it next; you will find it in My tasks if it is sent back.",
  "submit.backToTasks": "Back to My tasks",
} as const;

const zh: Catalogue<typeof en> = {
  "shortcut.stepNextIncomplete": "下一个未完成的步骤",
  "shortcut.outcomeSuccess": "任务结果：成功",
  "shortcut.outcomeFailure": "任务结果：失败",
  "shortcut.discard": "丢弃此轨迹（切换）",
  "shortcut.inFields":
    "在文本框中按键会输入文字：只有 Ctrl 组合键生效，按 Esc 离开文本框。焦点在下拉框、单选项、复选框或按钮上时，快捷键照常生效，且不会改变该控件的值；空格键按下按钮、勾选复选框或选中当前单选项（在截图上按住空格可平移），Alt+↓ 打开下拉框。",
  "shortcut.verdictAdvance": "按判定键后自动跳到下一步",
  "shortcut.verdictAdvanceHint": "个人设置，保存在服务器上，换浏览器也会保留。",
  "submit.blockedTitle": "还不能提交：",
  "submit.notYet": "还有步骤或任务结果未完成；点击提交可查看清单。",
  "submit.stepProblem": "第 {n} 步：{problem}",
  "submit.moreProblems": "……另有 {n} 项。",
  "submit.unknownProblem": "有需要修正的地方（{code}）。",
  "submit.done": "已提交审核，谢谢！",
  "submit.doneHint": "接下来由审核员查看；如被退回，会出现在“我的任务”中。",
  "submit.backToTasks": "返回我的任务",
};

export const keyboard = { en, zh };
