import { APPS, THUMBS, type AppDef } from "./apps";
import type { Flow } from "./flow";
import { tint, type Layout, type ListItem } from "./screen";

/** Whole screens the flows walk through. Each returns the finished layout (svg + target boxes). */

const PRICE_RED = "#ff4d2d";

export function launcher(f: Flow): Layout {
  const s = f.screen("#3a5a8c");
  s.statusBar("#3a5a8c", false);
  const others = f.rng.sample(
    APPS.filter((a) => a.name !== f.app.name),
    15,
  );
  const at = f.rng.int(0, 11);
  const apps = [...others.slice(0, at), f.app, ...others.slice(at)];
  s.systemNav(true);
  s.launcher(apps.map((a) => ({ name: a.name, color: a.color, onColor: a.onColor })));
  return s.finish();
}

export function recents(f: Flow, apps: AppDef[]): Layout {
  const s = f.screen("#2b2b30");
  s.statusBar("#2b2b30", false);
  s.systemNav(true);
  s.recents(apps.map((a) => ({ name: a.name, color: a.color })));
  return s.finish();
}

export function splash(f: Flow, seconds: number): Layout {
  const s = f.screen();
  s.splash(f.app, f.rng.pick(["618 年中大促", "新人礼包 限时领", "会员日 5 折起", "周末狂欢季"]), seconds);
  return s.finish();
}

/** The app's home screen: header with search, entry grid, banner, feed or list, tab bar. */
export function home(f: Flow, opts: { app?: AppDef; popup?: boolean; map?: boolean; list?: ListItem[] } = {}): Layout {
  const app = opts.app ?? f.app;
  const s = f.screen(undefined, { primary: app.color, onPrimary: app.onColor });
  s.statusBar(app.color, app.onColor !== "#ffffff");
  s.appHeader(app.name, app.searchHint, app.kind === "chat" ? "＋" : undefined);
  s.systemNav();
  s.tabBar(app.tabs, 0);
  if (opts.map) s.hero("#e6ecdf", "当前位置：朝阳区 望京街道", 200);
  if (opts.list) {
    s.list(opts.list, { compact: true });
  } else {
    if (app.grid.length) s.grid(app.grid.map((label, i) => ({ label, color: THUMBS[(i * 3 + app.name.length) % THUMBS.length]! })));
    if (!opts.map)
      s.banner(
        f.rng.pick(["限时特惠", "今日推荐", "新人专享", "品质生活"]),
        f.rng.pick(["精选好物 低至 5 折", "每满 300 减 40", "领券立减 20 元"]),
        tint(app.color === "#ffffff" ? "#888888" : app.color, 0.1),
      );
    s.feed(feedItems(f, app, 6));
  }
  if (opts.popup)
    s.dialog({ title: "新人专享红包", message: "最高可领 ¥88 无门槛红包", buttons: ["立即领取"], closable: true, color: PRICE_RED });
  return s.finish();
}

function feedItems(f: Flow, app: AppDef, n: number): { title: string; color: string; meta: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    title: `${f.rng.pick(app.queries)} ${f.rng.pick(["精选", "推荐", "热门", "好评", "新品"])}`,
    color: THUMBS[(i * 7 + app.name.length) % THUMBS.length]!,
    meta: f.rng.pick(["1.2万人看过", "¥99 起", "3.5万赞", "附近 800m", "好评率 98%"]),
  }));
}

/** The search page: input row (with typed text), history chips or suggestions, keyboard. */
export function search(
  f: Flow,
  opts: { text: string; hint?: string; history?: string[]; suggestions?: string[]; keyboard?: boolean },
): Layout {
  const s = f.screen("#ffffff");
  s.statusBar();
  s.searchRow({ text: opts.text, hint: opts.hint ?? f.app.searchHint, focused: true });
  s.systemNav();
  if (opts.keyboard !== false) s.keyboard("搜索", opts.text ? [opts.text, ...[...opts.text].slice(0, 2)] : []);
  if (opts.suggestions) {
    s.list(
      opts.suggestions.map((t) => ({ title: t })),
      { compact: true, thumb: false },
    );
  } else {
    s.sectionTitle("历史搜索", "清空");
    s.chips(opts.history ?? f.rng.sample(f.app.queries, 3));
    s.sectionTitle("猜你想搜");
    s.chips(f.rng.sample(["热卖爆款", "今日特价", "新品上市", "人气榜单", "品牌旗舰", "限时秒杀"], 4));
  }
  return s.finish();
}

/** A search-result list with filter tabs; `first` is the index of the first visible item (after scrolling). */
export function results(
  f: Flow,
  query: string,
  items: ListItem[],
  opts: { first?: number; tabs?: string[]; active?: number; compact?: boolean; thumb?: boolean } = {},
): Layout {
  const s = f.screen();
  s.statusBar();
  s.searchRow({ text: query, hint: "", focused: false });
  const tabs = opts.tabs ?? ["综合", "销量", "价格", "筛选"];
  s.tabs(tabs, opts.active ?? 0);
  s.systemNav();
  const first = opts.first ?? 0;
  s.list(items.slice(first), { firstIndex: first, compact: opts.compact, thumb: opts.thumb });
  return s.finish();
}

/** A detail page: picture, price and title, description, action bar. */
export function detail(
  f: Flow,
  item: ListItem,
  opts: {
    icons: string[];
    buttons: { label: string; color: string }[];
    lines?: string[];
    toast?: string;
    heroDp?: number;
    dark?: boolean;
    tags?: string[];
  },
): Layout {
  const s = f.screen();
  s.statusBar(opts.dark ? "#000000" : "#ffffff", !opts.dark);
  s.navBar(opts.dark ? "视频详情" : "详情", "分享");
  s.systemNav();
  s.actionBar(opts.icons, opts.buttons);
  s.hero(item.thumb ?? THUMBS[0]!, "", opts.heroDp ?? 240);
  s.info({
    price: item.price,
    title: item.title,
    tags: opts.tags ?? ["包邮", "7天无理由", "正品保障"],
    lines: opts.lines ?? [item.sub ?? "", "发货：现货，付款后 48 小时内发货", "服务：破损包退 · 极速退款"],
  });
  if (s.remaining > s.d(120)) {
    s.sectionTitle(opts.dark ? "评论 2.3万" : "商品评价(2000+)", "查看全部");
    const who = ["用户8***2", "小***鱼", "j***n", "阿***呀"];
    const said = ["质量很好，和描述一致", "物流很快，包装完整", "性价比高，推荐购买", "用了一周，挺满意的"];
    s.list(
      who.map((w, i) => ({ title: w, sub: said[(i + item.title.length) % said.length], thumb: THUMBS[(i * 2 + 3) % THUMBS.length] })),
      { compact: true },
    );
  }
  if (opts.toast) s.toast(opts.toast);
  return s.finish();
}

/** Order confirmation with the item, address and a submit bar. */
export function checkout(f: Flow, item: ListItem, total: string, button = "提交订单", delivery = "快递 免运费"): Layout {
  const s = f.screen();
  s.statusBar();
  s.navBar("确认订单");
  s.systemNav();
  s.totalBar(total, button);
  s.fields([
    { label: "收货地址", value: "北京市朝阳区望京SOHO T1" },
    { label: "配送方式", value: delivery },
  ]);
  s.list([{ ...item, sub: "数量：1" }], { compact: false });
  s.fields([
    { label: "优惠券", value: "已选最优 -¥5" },
    { label: "订单备注", value: "选填，请先和商家协商", placeholder: true },
  ]);
  return s.finish();
}

export function loading(f: Flow, title: string, caption: string): Layout {
  const s = f.screen("#ffffff");
  s.statusBar();
  s.navBar(title);
  s.systemNav();
  s.spinner(caption);
  return s.finish();
}

export function statusPage(f: Flow, title: string, ok: boolean, heading: string, message: string, button?: string): Layout {
  const s = f.screen("#ffffff");
  s.statusBar();
  s.navBar(title);
  s.systemNav();
  s.status({ ok, title: heading, message });
  if (button) s.button(button);
  return s.finish();
}

/** A form page (booking, recharge) with rows and one big button. */
export function form(
  f: Flow,
  title: string,
  rows: { label: string; value: string; placeholder?: boolean }[],
  button: string,
  banner?: string,
): Layout {
  const s = f.screen();
  s.statusBar();
  s.navBar(title);
  s.systemNav();
  if (banner) s.banner(banner, "出行有保障 · 退改更灵活", f.app.color === "#ffc900" ? "#f5a623" : f.app.color);
  s.fields(rows);
  s.button(button);
  return s.finish();
}

/** A plain list page under a nav bar (bill list, services, contacts). */
export function listPage(
  f: Flow,
  title: string,
  items: ListItem[],
  opts: { compact?: boolean; thumb?: boolean; header?: { price: string; title: string } } = {},
): Layout {
  const s = f.screen();
  s.statusBar();
  s.navBar(title);
  s.systemNav();
  if (opts.header) s.info({ price: opts.header.price, title: opts.header.title, tags: [] });
  s.list(items, { compact: opts.compact ?? true, thumb: opts.thumb ?? true });
  return s.finish();
}

export function player(f: Flow, title: string, artist: string, opts: { playing: boolean; volume?: number; liked?: boolean }): Layout {
  const s = f.screen("#1f1f24");
  s.statusBar("#1f1f24", false);
  s.navBar(title);
  s.systemNav(true);
  s.hero("#2c2c34", "", 300, true);
  s.player({ title, artist, playing: opts.playing, dark: true });
  if (opts.volume !== undefined) s.volume(opts.volume);
  if (opts.liked) s.toast("已添加到我喜欢的音乐");
  return s.finish();
}

export function chat(
  f: Flow,
  contact: string,
  msgs: { mine: boolean; text: string }[],
  opts: { input: string; focused: boolean; menuOn?: number; toast?: string },
): Layout {
  const s = f.screen("#ededed", { primary: f.app.color, onPrimary: f.app.onColor });
  s.statusBar("#ededed");
  s.navBar(contact, "···");
  s.systemNav();
  if (opts.focused) s.keyboard("发送", opts.input ? [opts.input.slice(0, 4)] : []);
  s.inputBar(opts.input, opts.focused);
  s.messages(msgs);
  if (opts.menuOn !== undefined) {
    const anchor = s.finish().targets.get(`msg:${opts.menuOn}`);
    if (anchor) s.contextMenu(anchor, ["复制", "转发", "收藏", "删除"]);
  }
  if (opts.toast) s.toast(opts.toast);
  return s.finish();
}

/** A post / note / answer page with an action bar. */
export function post(f: Flow, item: ListItem, body: string[], opts: { icons: string[]; toast?: string; menu?: boolean }): Layout {
  const s = f.screen("#ffffff");
  s.statusBar();
  s.navBar(item.sub?.split(" · ")[0] ?? f.app.name, "关注");
  s.systemNav();
  s.actionBar(opts.icons, []);
  s.hero(item.thumb ?? THUMBS[1]!, "", 220);
  s.info({ title: item.title, tags: [], lines: [] });
  const top = s.y;
  s.paragraph(body);
  s.target("body", [0, top, s.W, s.y]);
  if (opts.menu) s.contextMenu([0, top, s.W, top + s.d(26)], ["复制", "搜索", "分享"]);
  if (opts.toast) s.toast(opts.toast);
  return s.finish();
}

/** Photo picker grid; targets "photo:<i>". */
export function album(f: Flow): Layout {
  const s = f.screen("#ffffff");
  s.statusBar();
  s.navBar("选择照片", "相册");
  s.systemNav();
  s.tabs(["全部照片", "人像", "风景", "截图"], 0);
  const cols = 3;
  const gap = s.d(3);
  const w = Math.floor((s.W - (cols + 1) * gap) / cols);
  for (let i = 0; i < 12; i++) {
    const x = gap + (i % cols) * (w + gap);
    const y = s.y + gap + Math.floor(i / cols) * (w + gap);
    if (y + w > s.bottom) break;
    const c = THUMBS[(i * 3 + 1) % THUMBS.length]!;
    s.rect(x, y, w, w, c);
    s.circle(x + w * 0.68, y + w * 0.32, Math.round(w * 0.12), tint(c, 0.5));
    s.rect(x, Math.round(y + w * 0.62), w, Math.round(w * 0.38), tint(c, -0.2));
    s.target(`photo:${i}`, [x, y, x + w, y + w]);
  }
  return s.finish();
}

/** The photo editor: picture, tool tabs, optional filter strip. */
export function editor(f: Flow, photoColor: string, opts: { filters?: string[]; applied?: string }): Layout {
  const s = f.screen("#111111", { primary: f.app.color, onPrimary: f.app.onColor });
  s.statusBar("#111111", false);
  s.navBar("图片美化", "保存");
  s.systemNav(true);
  const tone = opts.applied ? tint(photoColor, 0.25) : photoColor;
  s.hero(tone, opts.applied ? `滤镜：${opts.applied}` : "", 330);
  s.tabs(["滤镜", "调色", "文字", "贴纸", "马赛克"], opts.filters ? 0 : -1);
  if (opts.filters) {
    s.y += s.d(8);
    s.chips(opts.filters);
  }
  return s.finish();
}
