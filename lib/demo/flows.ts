import type { Size } from "@/lib/domain/geometry";
import { APPS, THUMBS, type AppDef, type FlowKind } from "./apps";
import { Flow, type DraftStep } from "./flow";
import * as P from "./pages";
import { createRng, type Rng } from "./prng";
import type { Layout, ListItem } from "./screen";

export type DraftTrajectory = { app: AppDef; instruction: string; size: Size; steps: DraftStep[] };

export const MIN_STEPS = 3;
export const MAX_STEPS = 9;

const ORDINAL = ["一", "二", "三", "四", "五", "六"];
const DATES = ["明天", "后天", "本周六", "下周一", "6月18日"];

/** Screen sizes in the set: mostly 1080x2400, some 1080x2340 and 720x1280. */
function pickSize(rng: Rng): Size {
  const r = rng.next();
  if (r < 0.7) return { width: 1080, height: 2400 };
  if (r < 0.85) return { width: 1080, height: 2340 };
  return { width: 720, height: 1280 };
}

/**
 * Get from wherever the phone is into the app's home screen: open from the desktop (or Home first,
 * or through the recent-apps view), then maybe a launch ad and a pop-up to dismiss.
 */
function enterApp(f: Flow, goal: string): void {
  const { rng, app } = f;
  const r = rng.next();
  if (f.extras && r < 0.12) {
    const other = rng.pick(APPS.filter((a) => a.name !== app.name));
    f.sys(P.home(f, { app: other }), "Home", {
      state: `当前停留在${other.name}的首页，与任务无关`,
      next: "按Home键回到桌面",
      purpose: `以便打开${app.name}`,
      subtask: "返回手机桌面",
    });
  }
  if (f.extras && r >= 0.12 && r < 0.2) {
    const desk = P.launcher(f);
    f.sys(desk, "Menu", {
      state: "当前在手机桌面",
      next: "打开最近任务列表",
      purpose: `从后台切换到刚用过的${app.name}`,
      subtask: "按菜单键打开后台任务",
    });
    const others = rng.sample(
      APPS.filter((a) => a.name !== app.name),
      2,
    );
    const rec = P.recents(f, [others[0]!, app, others[1]!]);
    f.tap(rec, `recent:${app.name}`, {
      state: `后台任务列表中有${app.name}的卡片，位于屏幕中间`,
      next: `点击${app.name}的卡片`,
      purpose: `以便回到${app.name}`,
      subtask: `点击中间的${app.name}卡片`,
    });
  } else {
    f.open(P.launcher(f), app.name, {
      state: "当前在手机桌面",
      next: `打开${app.name}`,
      purpose: `以便${goal}`,
      subtask: `打开${app.name}应用`,
    });
  }
  if (f.extras && rng.chance(0.18)) {
    const sp = P.splash(f, 3);
    if (rng.chance(0.5))
      f.wait(sp, 2, { state: `${app.name}正在显示启动广告`, next: "等待广告结束", purpose: "进入应用首页", subtask: "等待2秒" });
    else
      f.tap(sp, "skip", {
        state: `${app.name}正在显示启动广告，右上角有“跳过”按钮`,
        next: "点击右上角的“跳过”",
        purpose: "尽快进入应用首页",
        subtask: "点击右上角的跳过按钮",
      });
  }
  if (f.extras && rng.chance(0.15)) {
    const pop = P.home(f, { popup: true });
    const w = { state: `${app.name}首页弹出了红包活动弹窗，遮住了页面`, purpose: "继续完成任务" };
    if (rng.chance(0.65)) f.tap(pop, "dialog:close", { ...w, next: "点击弹窗下方的关闭按钮", subtask: "关闭红包弹窗" });
    else f.sys(pop, "Back", { ...w, next: "按返回键关闭弹窗", subtask: "按返回键关闭弹窗" });
  }
}

function price(rng: Rng, lo: number, hi: number): string {
  return `¥${rng.int(lo, hi)}${rng.chance(0.5) ? ".9" : ""}`;
}

function shopItems(f: Flow, q: string, n: number): ListItem[] {
  const brands = ["旗舰店", "官方自营", "品牌直营", "工厂店", "优选", "严选"];
  const specs = ["2024新款", "高性价比", "爆款热卖", "官方正品", "限时折扣", "大容量"];
  return Array.from({ length: n }, (_, i) => ({
    title: `${q} ${f.rng.pick(specs)} ${f.rng.pick(["经典款", "升级版", "Pro", "标准版", "礼盒装"])}`,
    sub: `${f.app.name}${f.rng.pick(brands)} · 好评率${f.rng.int(92, 99)}%`,
    price: price(f.rng, 19, 899),
    meta: `${f.rng.int(1, 99)}00+人付款`,
    badge: i === 0 ? "热卖" : undefined,
    thumb: THUMBS[(i * 3 + q.length) % THUMBS.length],
  }));
}

function shopFlow(f: Flow): string {
  const { rng, app } = f;
  const q = rng.pick(app.queries);
  const goals = app.name === "闲鱼" ? (["fav", "price", "buy"] as const) : (["cart", "cart", "buy", "fav", "price"] as const);
  const goal = rng.pick(goals);
  const failing = f.extras && rng.chance(0.06);
  const k = rng.int(0, 2);
  const instruction = {
    cart: `在${app.name}搜索“${q}”，把第${ORDINAL[k]}个商品加入购物车`,
    buy: `在${app.name}上买一个${q}，选第${ORDINAL[k]}个商品，进入确认订单页面即可`,
    fav: `在${app.name}搜索${q}，按销量排序后收藏销量最高的商品`,
    price: `用${app.name}查一下${q}的价格，告诉我搜索结果中第一个商品多少钱`,
  }[goal];
  enterApp(f, `搜索${q}`);
  f.tap(P.home(f), "search", {
    state: `当前在${app.name}首页，搜索框位于顶部`,
    next: "点击搜索框",
    purpose: `以便输入要找的商品名称`,
    subtask: "点击顶部的搜索框",
  });
  const typed = f.type(P.search(f, { text: "" }), q, {
    state: "已进入搜索页，输入框处于激活状态，键盘已弹出",
    next: `输入“${q}”`,
    purpose: "以便搜索相关商品",
    subtask: `在搜索框输入“${q}”`,
  });
  const sp = P.search(f, { text: typed, suggestions: [typed, `${typed} 推荐`, `${typed} 正品`, `${typed} 便宜`] });
  const confirm = { state: `搜索框中已输入“${typed}”，下方出现联想词`, purpose: "以便查看搜索结果" };
  if (rng.chance(0.5)) f.sys(sp, "Enter", { ...confirm, next: "按回车键确认搜索", subtask: "按回车键开始搜索" });
  else f.tap(sp, "searchButton", { ...confirm, next: "点击右侧的“搜索”按钮", subtask: "点击搜索按钮" });
  if (failing) {
    const empty = P.statusPage(f, "搜索结果", false, "没有找到相关商品", `换个关键词试试，如“${q.slice(0, 2)}”`);
    f.end(empty, "failure", {
      state: "搜索结果页显示“没有找到相关商品”",
      next: "结束任务并报告失败",
      purpose: "因为没有可选的商品",
      subtask: "任务无法完成，结束",
    });
    return instruction;
  }
  let items = shopItems(f, q, 8);
  let res = P.results(f, q, items);
  if (goal === "price") {
    const first = items[0]!;
    f.answer(res, `第一个商品“${first.title}”的价格是${first.price}`, {
      state: `当前是“${q}”的搜索结果页，第一个商品标价${first.price}`,
      next: `回答价格${first.price}`,
      purpose: "把查到的价格告诉用户",
      subtask: `回答：${first.price}`,
    });
    f.end(res, "success", { state: "已经回答了第一个商品的价格", next: "结束任务", purpose: "任务已完成", subtask: "任务完成" });
    return instruction;
  }
  let target = k;
  if (goal === "fav") {
    f.tap(res, "tab:销量", {
      state: `当前是“${q}”的搜索结果页，默认按综合排序`,
      next: "点击“销量”标签",
      purpose: "让结果按销量从高到低排列",
      subtask: "点击顶部的销量排序",
    });
    items = shopItems(f, q, 8).map((it, i) => ({ ...it, meta: `${99 - i * 7}00+人付款` }));
    res = P.results(f, q, items, { active: 1 });
    target = 0;
  }
  if (f.extras && rng.chance(0.3)) {
    f.swipe(res, "list", "up", {
      state: "当前是搜索结果列表",
      next: "向上滑动列表",
      purpose: "先浏览更多商品再做选择",
      subtask: "向上滑动查看更多商品",
    });
    const more = P.results(f, q, items, { first: 2, active: goal === "fav" ? 1 : 0 });
    f.swipe(more, "list", "down", {
      state: "已看过下面的商品，要选的商品在列表上方",
      next: "向下滑动回到列表顶部",
      purpose: `以便找到第${ORDINAL[target]}个商品`,
      subtask: "向下滑动回到顶部",
    });
  }
  const item = items[target]!;
  const wrong = target === 0 ? 1 : 0;
  f.tapChoice(
    res,
    `item:${target}`,
    {
      state:
        goal === "fav"
          ? `结果已按销量排序，第一个商品“${item.title}”销量最高`
          : `当前是“${q}”的搜索结果列表，第${ORDINAL[target]}个商品是“${item.title}”`,
      next: `点击第${ORDINAL[target]}个商品`,
      purpose: "以便进入商品详情页",
      subtask: `点击第${ORDINAL[target]}个商品“${item.title}”`,
    },
    { key: `item:${wrong}`, page: () => P.detail(f, items[wrong]!, shopDetailOpts(f)), what: `第${ORDINAL[wrong]}个商品的详情页` },
  );
  const det = P.detail(f, item, shopDetailOpts(f));
  const at = `当前是“${item.title}”的商品详情页，底部有操作按钮`;
  if (goal === "cart") {
    f.tap(det, "action:加入购物车", {
      state: at,
      next: "点击“加入购物车”",
      purpose: "把该商品加入购物车",
      subtask: "点击底部的加入购物车按钮",
    });
    f.end(P.detail(f, item, { ...shopDetailOpts(f), toast: "已加入购物车" }), "success", {
      state: "页面提示“已加入购物车”",
      next: "结束任务",
      purpose: "商品已成功加入购物车",
      subtask: "任务完成",
    });
  } else if (goal === "buy") {
    const buy = app.name === "闲鱼" ? "立即购买" : "立即购买";
    f.tap(det, `action:${buy}`, { state: at, next: `点击“${buy}”`, purpose: "进入确认订单页面", subtask: `点击底部的${buy}按钮` });
    f.end(P.checkout(f, item, item.price ?? "¥0"), "success", {
      state: "已进入确认订单页面，显示收货地址和应付金额",
      next: "结束任务",
      purpose: "任务要求到确认订单页即可",
      subtask: "任务完成",
    });
  } else {
    f.tap(det, "action:收藏", { state: at, next: "点击左下角的“收藏”", purpose: "收藏这个销量最高的商品", subtask: "点击底部的收藏按钮" });
    f.end(P.detail(f, item, { ...shopDetailOpts(f), toast: "收藏成功" }), "success", {
      state: "页面提示“收藏成功”",
      next: "结束任务",
      purpose: "商品已收藏",
      subtask: "任务完成",
    });
  }
  return instruction;
}

function shopDetailOpts(f: Flow) {
  const buttons =
    f.app.name === "闲鱼"
      ? [{ label: "立即购买", color: "#ffb800" }]
      : [
          { label: "加入购物车", color: "#ff9500" },
          { label: "立即购买", color: "#ff3b30" },
        ];
  return { icons: ["店铺", "客服", "收藏"], buttons };
}

function foodFlow(f: Flow): string {
  const { rng, app } = f;
  const q = rng.pick(app.queries);
  const instruction = rng.pick([
    `在${app.name}点一份${q}外卖，到提交订单页面即可`,
    `用${app.name}帮我点${q}，选第一家店，进到付款前的页面`,
  ]);
  enterApp(f, `点${q}外卖`);
  f.tap(P.home(f), "search", {
    state: `当前在${app.name}首页，顶部有搜索框`,
    next: "点击搜索框",
    purpose: `以便搜索${q}`,
    subtask: "点击顶部搜索框",
  });
  const typed = f.type(P.search(f, { text: "" }), q, {
    state: "已进入搜索页，键盘已弹出",
    next: `输入“${q}”`,
    purpose: "以便找到卖这道菜的商家",
    subtask: `输入“${q}”`,
  });
  f.sys(P.search(f, { text: typed, suggestions: [typed, `${typed} 附近`, `${typed} 套餐`] }), "Enter", {
    state: `输入框中已有“${typed}”`,
    next: "按回车键搜索",
    purpose: "查看附近的商家",
    subtask: "按回车键搜索",
  });
  const shops: ListItem[] = Array.from({ length: 7 }, (_, i) => ({
    title: `${q}·${rng.pick(["老街", "望京", "国贸", "中关村", "五道口", "双井"])}店`,
    sub: `${(4.9 - i * 0.1).toFixed(1)}分 · 月售${rng.int(5, 90)}00+ · ${rng.int(25, 45)}分钟`,
    price: `起送¥${rng.int(15, 30)}`,
    meta: `配送¥${rng.int(0, 5)} · ${rng.int(3, 30) / 10}km`,
    thumb: THUMBS[(i * 5 + 2) % THUMBS.length],
  }));
  const res = P.results(f, q, shops, { tabs: ["综合排序", "距离", "销量", "筛选"] });
  const shop = shops[0]!;
  const dishPrice = rng.int(18, 38);
  f.tapChoice(
    res,
    "item:0",
    {
      state: `当前是“${q}”的商家列表，第一家是“${shop.title}”，评分最高`,
      next: "点击第一家店",
      purpose: "进入店铺点菜",
      subtask: `点击“${shop.title}”`,
    },
    { key: "item:1", page: () => menuPage(f, shop, shops[1]!.title, 0, dishPrice), what: "另一家店铺" },
  );
  f.tap(menuPage(f, shop, shop.title, 0, dishPrice), "itemButton:0", {
    state: `已进入“${shop.title}”的点菜页，招牌${q}在第一行`,
    next: "点击招牌菜右侧的“+”",
    purpose: "把它加入购物车",
    subtask: `点击${q}右侧的加号`,
  });
  f.tap(menuPage(f, shop, shop.title, dishPrice, dishPrice), "action:去结算", {
    state: `已加入1份${q}，底部显示合计¥${dishPrice}`,
    next: "点击右下角的“去结算”",
    purpose: "进入提交订单页面",
    subtask: "点击去结算",
  });
  f.end(
    P.checkout(f, { title: `招牌${q}`, price: `¥${dishPrice}`, thumb: shop.thumb }, `¥${dishPrice + 3}`, "提交订单", "外卖配送 约35分钟"),
    "success",
    { state: "已进入提交订单页面", next: "结束任务", purpose: "任务要求到付款前即可", subtask: "任务完成" },
  );
  return instruction;
}

function menuPage(f: Flow, shop: ListItem, title: string, total: number, dishPrice: number): Layout {
  const s = f.screen();
  s.statusBar();
  s.navBar(title);
  s.systemNav();
  s.totalBar(`¥${total}`, "去结算", total ? "另需配送费¥3" : "¥20起送");
  s.info({ title: shop.sub ?? "", tags: ["满30减5", "新客立减8", "准时宝"], lines: [] });
  s.tabs(["点菜", "评价", "商家"], 0);
  const dishes = [`招牌${shop.title.split("·")[0]}`, "卤蛋", "冰镇酸梅汤", "小份凉菜", "加一份米饭"];
  s.list(
    dishes.map((d, i) => ({
      title: d,
      sub: `月售${300 - i * 40}`,
      price: `¥${[dishPrice, 3, 6, 9, 2][i]}`,
      button: "+",
      thumb: THUMBS[(i + 4) % THUMBS.length],
    })),
  );
  return s.finish();
}

function reviewFlow(f: Flow): string {
  const { rng, app } = f;
  const q = rng.pick(app.queries);
  const answer = rng.chance(0.5);
  const instruction = answer ? `在大众点评找附近评分最高的${q}店，告诉我它的人均价格` : `在大众点评找一家附近好评最多的${q}店并收藏`;
  enterApp(f, `找附近的${q}店`);
  f.tap(P.home(f), "search", {
    state: "当前在大众点评首页，顶部有搜索框",
    next: "点击搜索框",
    purpose: `以便搜索${q}`,
    subtask: "点击顶部搜索框",
  });
  const typed = f.type(P.search(f, { text: "" }), q, {
    state: "已进入搜索页，输入框已激活",
    next: `输入“${q}”`,
    purpose: "以便查找相关商户",
    subtask: `输入“${q}”`,
  });
  f.tap(P.search(f, { text: typed, suggestions: [typed, `${typed} 附近`, `${typed} 人气榜`] }), "searchButton", {
    state: `已输入“${typed}”`,
    next: "点击“搜索”",
    purpose: "查看商户列表",
    subtask: "点击搜索按钮",
  });
  const shops: ListItem[] = Array.from({ length: 7 }, (_, i) => ({
    title: `${rng.pick(["蜀大侠", "小龙坎", "一风堂", "汉拿山", "Manner", "胖哥俩", "楠火锅"])}(${rng.pick(["三里屯", "望京", "西单", "五道口"])}店)`,
    sub: `${(4.9 - i * 0.1).toFixed(1)}分 · ${rng.int(1, 9)}${rng.int(0, 9)}00条评价 · ${q}`,
    price: `¥${rng.int(60, 180)}/人`,
    meta: `${rng.int(3, 40) / 10}km`,
    thumb: THUMBS[(i * 2 + 1) % THUMBS.length],
  }));
  const res = P.results(f, q, shops, { tabs: ["全部", "附近", "好评优先", "筛选"] });
  const shop = shops[0]!;
  const det = () =>
    P.detail(f, shop, {
      icons: ["收藏", "分享"],
      buttons: [
        { label: "写评价", color: "#ff6633" },
        { label: "订座", color: "#ff3b30" },
      ],
      tags: ["必吃榜", "环境好", "服务热情"],
      lines: [`地址：朝阳区${rng.pick(["工体北路", "望京街"])}${rng.int(1, 99)}号`, "营业时间：10:00-22:00", shop.sub ?? ""],
    });
  f.tapChoice(
    res,
    "item:0",
    {
      state: `当前是${q}商户列表，第一家“${shop.title}”评分最高`,
      next: "点击第一家商户",
      purpose: "查看商户详情",
      subtask: `点击“${shop.title}”`,
    },
    {
      key: "item:2",
      page: () => P.detail(f, shops[2]!, { icons: ["收藏", "分享"], buttons: [{ label: "写评价", color: "#ff6633" }] }),
      what: "另一家商户的详情页",
    },
  );
  const d = det();
  if (answer) {
    f.answer(d, `${shop.title}的人均价格是${shop.price?.replace("/人", "")}`, {
      state: `当前是“${shop.title}”详情页，人均${shop.price}`,
      next: "回答人均价格",
      purpose: "把结果告诉用户",
      subtask: `回答：人均${shop.price}`,
    });
    f.end(d, "success", { state: "已回答人均价格", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  } else {
    f.tap(d, "action:收藏", {
      state: `当前是“${shop.title}”详情页，左下角有收藏`,
      next: "点击“收藏”",
      purpose: "收藏这家店",
      subtask: "点击底部收藏按钮",
    });
    f.end(
      P.detail(f, shop, {
        icons: ["收藏", "分享"],
        buttons: [
          { label: "写评价", color: "#ff6633" },
          { label: "订座", color: "#ff3b30" },
        ],
        toast: "已收藏",
      }),
      "success",
      { state: "页面提示“已收藏”", next: "结束任务", purpose: "任务完成", subtask: "任务完成" },
    );
  }
  return instruction;
}

function travelFlow(f: Flow): string {
  const { rng, app } = f;
  const city = rng.pick(app.queries);
  const date = rng.pick(DATES);
  const instruction = rng.pick([
    `在${app.name}上搜索${city}${date}入住的酒店，打开第一家酒店的详情页`,
    `用${app.name}看看${date}${city}有什么酒店，进入第一家的详情`,
  ]);
  enterApp(f, `预订${city}的酒店`);
  f.tap(P.home(f), "grid:酒店", {
    state: `当前在${app.name}首页，入口区有“酒店”`,
    next: "点击“酒店”入口",
    purpose: "进入酒店预订页面",
    subtask: "点击酒店图标",
  });
  const rows = (dest: string, placeholder: boolean) => [
    { label: "目的地", value: dest, placeholder },
    { label: "入住", value: `${date} 周三` },
    { label: "离店", value: "次日 周四" },
    { label: "人数", value: "1间 1成人" },
  ];
  f.tap(P.form(f, "酒店", rows("请选择城市", true), "查询酒店", "酒店特惠"), "field:目的地", {
    state: "已进入酒店预订页，目的地尚未选择",
    next: "点击“目的地”一栏",
    purpose: `以便选择${city}`,
    subtask: "点击目的地输入框",
  });
  const typed = f.type(P.search(f, { text: "", hint: "城市、区域、酒店名", history: ["北京", "上海", "广州", "深圳"] }), city, {
    state: "已进入城市搜索页，输入框已激活",
    next: `输入“${city}”`,
    purpose: "以便选中目的地城市",
    subtask: `输入“${city}”`,
  });
  f.tap(P.search(f, { text: typed, hint: "", suggestions: [`${city}`, `${city}站`, `${city}市中心`, `${city}机场`] }), "item:0", {
    state: `下方联想出“${city}”等城市`,
    next: `点击第一条“${city}”`,
    purpose: "把它设为目的地",
    subtask: `选择${city}`,
  });
  f.tap(P.form(f, "酒店", rows(city, false), "查询酒店", "酒店特惠"), "button:查询酒店", {
    state: `目的地已选为${city}，日期为${date}`,
    next: "点击“查询酒店”",
    purpose: "查看可订的酒店",
    subtask: "点击查询酒店按钮",
  });
  if (f.extras && rng.chance(0.5))
    f.wait(P.loading(f, `${city}酒店`, "正在为您查找酒店…"), 2, {
      state: "页面正在加载酒店列表",
      next: "等待加载完成",
      purpose: "以便查看结果",
      subtask: "等待2秒",
    });
  const hotels: ListItem[] = Array.from({ length: 7 }, (_, i) => ({
    title: `${city}${rng.pick(["全季", "亚朵", "希尔顿欢朋", "汉庭", "万豪", "桔子水晶"])}酒店(${rng.pick(["市中心", "火车站", "西湖", "春熙路", "高新区"])}店)`,
    sub: `${(4.8 - i * 0.1).toFixed(1)}分 · 高级大床房 · 含早`,
    price: `¥${rng.int(268, 888)}起`,
    meta: `距市中心${rng.int(5, 60) / 10}km`,
    thumb: THUMBS[(i * 3 + 5) % THUMBS.length],
  }));
  const res = P.results(f, city, hotels, { tabs: ["欢迎度", "位置", "价格", "筛选"] });
  const h0 = hotels[0]!;
  const hotelPage = (h: ListItem) =>
    P.detail(f, h, {
      icons: ["收藏", "客服"],
      buttons: [{ label: "查看房型", color: "#ff7d13" }],
      tags: ["免费取消", "含早餐", "近地铁"],
      lines: [h.sub ?? "", `入住${date} 14:00后 · 离店次日 12:00前`],
    });
  f.tapChoice(
    res,
    "item:0",
    {
      state: `当前是${city}的酒店列表，第一家是“${h0.title}”`,
      next: "点击第一家酒店",
      purpose: "打开酒店详情页",
      subtask: `点击“${h0.title}”`,
    },
    { key: "item:1", page: () => hotelPage(hotels[1]!), what: "第二家酒店的详情页" },
  );
  f.end(hotelPage(h0), "success", {
    state: `已打开“${h0.title}”的详情页`,
    next: "结束任务",
    purpose: "任务要求已完成",
    subtask: "任务完成",
  });
  return instruction;
}

function trainFlow(f: Flow): string {
  const { rng } = f;
  const to = rng.pick(f.app.queries);
  const date = rng.pick(DATES);
  const instruction = `在12306查询${date}从北京到${to}的高铁票，告诉我最早一班的车次和出发时间`;
  enterApp(f, `查询去${to}的车票`);
  const homeWith = (dest: string, placeholder: boolean) => {
    const s = f.screen();
    s.statusBar(f.app.color, false);
    s.appHeader("铁路12306");
    s.systemNav();
    s.tabBar(f.app.tabs, 0);
    s.fields([
      { label: "出发地", value: "北京" },
      { label: "到达地", value: dest, placeholder },
      { label: "出发日期", value: `${date} 周五` },
    ]);
    s.button("查询车票");
    s.grid(f.app.grid.slice(0, 5).map((label, i) => ({ label, color: THUMBS[i]! })));
    return s.finish();
  };
  f.tap(homeWith("请选择", true), "field:到达地", {
    state: "当前在12306首页，出发地为北京，到达地还未选择",
    next: "点击“到达地”",
    purpose: `以便选择${to}`,
    subtask: "点击到达地",
  });
  const typed = f.type(P.search(f, { text: "", hint: "输入城市或车站", history: ["上海", "天津", "石家庄"] }), to, {
    state: "已进入车站选择页，输入框已激活",
    next: `输入“${to}”`,
    purpose: "以便找到到达站",
    subtask: `输入“${to}”`,
  });
  f.tap(P.search(f, { text: typed, hint: "", suggestions: [to, `${to}虹桥`, `${to}西`] }), "item:0", {
    state: `联想列表第一条是“${to}”`,
    next: `点击“${to}”`,
    purpose: "把它设为到达地",
    subtask: `选择${to}`,
  });
  f.tap(homeWith(to, false), "button:查询车票", {
    state: `出发地北京，到达地${to}，日期${date}`,
    next: "点击“查询车票”",
    purpose: "查看车次列表",
    subtask: "点击查询车票",
  });
  f.wait(P.loading(f, `北京 → ${to}`, "正在查询余票…"), 2, {
    state: "页面正在查询车次",
    next: "等待查询完成",
    purpose: "以便查看车次",
    subtask: "等待2秒",
  });
  const hour = rng.int(6, 8);
  const trains: ListItem[] = Array.from({ length: 7 }, (_, i) => {
    const h = hour + i;
    return {
      title: `G${rng.int(1, 199)}  ${String(h).padStart(2, "0")}:${["00", "15", "36", "50"][i % 4]} → ${String(h + 5).padStart(2, "0")}:${["28", "42", "05", "19"][i % 4]}`,
      sub: `北京南 → ${to} · ${rng.int(4, 6)}时${rng.int(10, 55)}分`,
      price: `¥${rng.int(520, 680)}`,
      meta: i === 2 ? "二等座 候补" : "二等座 有票",
      button: "预订",
    };
  });
  const res = P.results(f, `北京 → ${to}`, trains, { tabs: ["出发最早", "耗时最短", "价格", "筛选"], thumb: false });
  const first = trains[0]!;
  const [code, time] = first.title.split("  ");
  f.answer(res, `最早一班是${code}，${time?.split(" → ")[0]}从北京南出发`, {
    state: `已显示${date}北京到${to}的车次，按出发时间排序，第一班是${code}`,
    next: "回答最早一班的车次和时间",
    purpose: "把结果告诉用户",
    subtask: `回答：${code} ${time?.split(" → ")[0]}`,
  });
  f.end(res, "success", { state: "已经回答了最早的车次", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  return instruction;
}

function musicFlow(f: Flow): string {
  const { rng, app } = f;
  const q = rng.pick(app.queries);
  const [song, singer] = q.includes(" ") ? q.split(" ") : [q, rng.pick(["周杰伦", "毛不易", "陈奕迅", "林俊杰"])];
  const like = rng.chance(0.4);
  const instruction = like
    ? `在${app.name}播放《${song}》，并把它加到“我喜欢的音乐”`
    : `在${app.name}搜索并播放${song}，然后把音量调大一点`;
  enterApp(f, `播放${song}`);
  f.tap(P.home(f), "search", {
    state: `当前在${app.name}首页，顶部有搜索框`,
    next: "点击搜索框",
    purpose: `以便搜索${song}`,
    subtask: "点击顶部搜索框",
  });
  const typed = f.type(P.search(f, { text: "" }), q, {
    state: "已进入搜索页，输入框已激活",
    next: `输入“${q}”`,
    purpose: "以便找到这首歌",
    subtask: `输入“${q}”`,
  });
  f.sys(P.search(f, { text: typed, suggestions: [typed, `${song} 现场版`, `${song} 伴奏`] }), "Enter", {
    state: `已输入“${typed}”`,
    next: "按回车键搜索",
    purpose: "查看歌曲结果",
    subtask: "按回车键搜索",
  });
  const songs: ListItem[] = [
    { title: song!, sub: `${singer} · ${rng.pick(["叶惠美", "平凡的一天", "七里香", "原声带"])}`, button: "播放" },
    { title: `${song}(Live)`, sub: `${singer} · 演唱会现场` },
    { title: `${song}(钢琴版)`, sub: "纯音乐 · 钢琴曲精选" },
    { title: `${song}(翻唱)`, sub: "网络歌手 · 翻唱合集" },
    { title: `${song} DJ版`, sub: "DJ 舞曲" },
    { title: `${song}(伴奏)`, sub: `${singer} · 伴奏` },
  ];
  const res = P.results(f, q, songs, { tabs: ["单曲", "歌单", "视频", "歌手"], compact: true, thumb: false });
  f.tapChoice(
    res,
    "item:0",
    {
      state: `当前是“${q}”的单曲结果，第一首是${singer}的《${song}》`,
      next: "点击第一首歌",
      purpose: "开始播放",
      subtask: `点击《${song}》`,
    },
    { key: "item:1", page: () => P.player(f, `${song}(Live)`, singer!, { playing: true }), what: "Live版的播放页" },
  );
  const pl = P.player(f, song!, singer!, { playing: true });
  if (like) {
    f.tap(pl, "control:like", {
      state: `《${song}》正在播放，左侧有红心按钮`,
      next: "点击红心按钮",
      purpose: "把歌曲加入我喜欢的音乐",
      subtask: "点击喜欢按钮",
    });
    f.end(P.player(f, song!, singer!, { playing: true, liked: true }), "success", {
      state: "提示“已添加到我喜欢的音乐”",
      next: "结束任务",
      purpose: "任务完成",
      subtask: "任务完成",
    });
  } else {
    f.key(pl, "volume_up", { state: `《${song}》正在播放`, next: "按音量加键", purpose: "把音量调大", subtask: "调大音量" });
    f.end(P.player(f, song!, singer!, { playing: true, volume: 0.7 }), "success", {
      state: "歌曲在播放，音量已调大",
      next: "结束任务",
      purpose: "任务完成",
      subtask: "任务完成",
    });
  }
  return instruction;
}

function videoFlow(f: Flow): string {
  const { rng, app } = f;
  const q = rng.pick(app.queries);
  const bili = app.name === "哔哩哔哩";
  const instruction = bili
    ? `在哔哩哔哩搜索“${q}”，给第一个视频一键三连`
    : rng.pick([`在抖音搜索${q}，给第一个视频点赞`, `在抖音搜索${q}，打开第一个视频并把音量调小`]);
  const quieter = instruction.includes("音量");
  enterApp(f, `搜索${q}`);
  f.tap(P.home(f), "search", {
    state: `当前在${app.name}首页，顶部有搜索栏`,
    next: "点击搜索栏",
    purpose: `以便搜索${q}`,
    subtask: "点击顶部搜索栏",
  });
  const typed = f.type(P.search(f, { text: "" }), q, {
    state: "已进入搜索页，键盘已弹出",
    next: `输入“${q}”`,
    purpose: "以便找到相关视频",
    subtask: `输入“${q}”`,
  });
  f.sys(P.search(f, { text: typed, suggestions: [typed, `${typed} 合集`, `${typed} 最新`] }), "Enter", {
    state: `已输入“${typed}”`,
    next: "按回车键搜索",
    purpose: "查看视频结果",
    subtask: "按回车键搜索",
  });
  const vids: ListItem[] = Array.from({ length: 6 }, (_, i) => ({
    title: `${q}${rng.pick(["（超详细）", "｜保姆级", " 合集", " 第1集", "，看完就会"])}`,
    sub: `${rng.pick(["老番茄", "木鱼水心", "小约翰", "美食作家王刚", "帕梅拉"])} · ${rng.int(1, 99)}.${rng.int(0, 9)}万播放`,
    meta: `${rng.int(1, 30)}:${rng.int(10, 59)}`,
    price: " ",
    thumb: THUMBS[(i * 3 + 4) % THUMBS.length],
  }));
  const res = P.results(f, q, vids, { tabs: ["综合", "视频", "用户", "直播"] });
  const v = vids[0]!;
  const icons = bili ? ["点赞", "投币", "收藏", "分享"] : ["点赞", "评论", "收藏", "分享"];
  const page = (toast?: string) =>
    P.detail(f, v, { icons, buttons: [], dark: true, heroDp: 203, tags: [], lines: [v.sub ?? "", "简介：欢迎一键三连～"], toast });
  f.tapChoice(
    res,
    "item:0",
    { state: `当前是“${q}”的视频结果，第一个是“${v.title}”`, next: "点击第一个视频", purpose: "打开视频播放页", subtask: "点击第一个视频" },
    { key: "item:1", page: () => P.detail(f, vids[1]!, { icons, buttons: [], dark: true, heroDp: 203, tags: [] }), what: "第二个视频" },
  );
  if (bili) {
    f.tap(
      page(),
      "action:点赞",
      { state: "视频正在播放，下方有点赞、投币、收藏按钮", next: "长按点赞按钮", purpose: "触发一键三连", subtask: "长按点赞按钮2秒" },
      2,
    );
    f.end(page("三连成功"), "success", { state: "页面提示“三连成功”", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  } else if (quieter) {
    f.key(page(), "volume_down", { state: "视频正在播放", next: "按音量减键", purpose: "把音量调小", subtask: "调小音量" });
    f.end(page(), "success", { state: "视频在播放，音量已调小", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  } else {
    f.tap(page(), "action:点赞", {
      state: "视频正在播放，下方有点赞按钮",
      next: "点击点赞按钮",
      purpose: "给视频点赞",
      subtask: "点击点赞",
    });
    f.end(page("已点赞"), "success", { state: "点赞成功", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  }
  return instruction;
}

function mapFlow(f: Flow): string {
  const { rng, app } = f;
  const place = rng.pick(app.queries);
  const mode = rng.pick(["驾车", "公交地铁"]);
  const instruction = mode === "驾车" ? `用${app.name}导航去${place}` : `在${app.name}里查一下去${place}的公交地铁路线`;
  enterApp(f, `查去${place}的路线`);
  f.tap(P.home(f, { map: true }), "search", {
    state: `当前在${app.name}首页，顶部有搜索框`,
    next: "点击搜索框",
    purpose: `以便输入目的地${place}`,
    subtask: "点击顶部搜索框",
  });
  const typed = f.type(P.search(f, { text: "" }), place, {
    state: "已进入地点搜索页，输入框已激活",
    next: `输入“${place}”`,
    purpose: "以便找到目的地",
    subtask: `输入“${place}”`,
  });
  const sugg = [place, `${place}-地铁站`, `${place}停车场`, `${place}(东门)`];
  f.tap(P.search(f, { text: typed, suggestions: sugg }), "item:0", {
    state: `联想列表第一条是“${place}”`,
    next: "点击第一条结果",
    purpose: "查看该地点",
    subtask: `点击“${place}”`,
  });
  const card = P.detail(
    f,
    { title: place, sub: `${rng.int(2, 30)}.${rng.int(0, 9)}公里 · ${rng.pick(["交通设施", "风景名胜", "商务楼宇"])}`, thumb: "#e6ecdf" },
    {
      icons: ["收藏", "分享"],
      buttons: [
        { label: "路线", color: "#1a6dff" },
        { label: "导航", color: "#19be6b" },
      ],
      tags: ["营业中", "评分4.7"],
      heroDp: 300,
    },
  );
  if (mode === "驾车") {
    f.tap(card, "action:导航", {
      state: `已显示${place}的位置卡片，底部有“路线”和“导航”`,
      next: "点击“导航”",
      purpose: "开始驾车导航",
      subtask: "点击导航按钮",
    });
    f.end(P.statusPage(f, "导航中", true, `正在前往${place}`, `全程${rng.int(5, 40)}公里，预计${rng.int(15, 70)}分钟`), "success", {
      state: "已进入导航，显示预计时间",
      next: "结束任务",
      purpose: "导航已开始",
      subtask: "任务完成",
    });
  } else {
    f.tap(card, "action:路线", {
      state: `已显示${place}的位置卡片`,
      next: "点击“路线”",
      purpose: "查看去那里的路线",
      subtask: "点击路线按钮",
    });
    const routes = (active: number) => {
      const s = f.screen();
      s.statusBar();
      s.navBar(`我的位置 → ${place}`);
      s.tabs(["驾车", "公交地铁", "步行", "骑行"], active);
      s.systemNav();
      s.list(
        [0, 1, 2].map((i) => ({
          title: active ? `地铁${rng.int(1, 16)}号线 → ${rng.int(1, 16)}号线` : `方案${i + 1} · 大众常选`,
          sub: `${rng.int(25, 75)}分钟 · 步行${rng.int(3, 12)}00米`,
          price: active ? `¥${rng.int(3, 7)}` : "",
          thumb: "#e6ecdf",
        })),
      );
      return s.finish();
    };
    f.tap(routes(0), "tab:公交地铁", {
      state: "已进入路线页，默认显示驾车方案",
      next: "点击“公交地铁”标签",
      purpose: "查看公共交通路线",
      subtask: "切换到公交地铁",
    });
    f.end(routes(1), "success", { state: `已显示去${place}的公交地铁路线`, next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  }
  return instruction;
}

function rideFlow(f: Flow): string {
  const { rng, app } = f;
  const place = rng.pick(app.queries);
  const instruction = `用滴滴叫一辆快车去${place}`;
  enterApp(f, `叫车去${place}`);
  f.tap(P.home(f, { map: true }), "search", {
    state: "当前在滴滴出行首页，上方有“您要去哪儿”",
    next: "点击“您要去哪儿”",
    purpose: "输入目的地",
    subtask: "点击目的地输入框",
  });
  const typed = f.type(P.search(f, { text: "", hint: "您要去哪儿" }), place, {
    state: "已进入目的地输入页",
    next: `输入“${place}”`,
    purpose: "以便找到目的地",
    subtask: `输入“${place}”`,
  });
  f.tap(P.search(f, { text: typed, hint: "", suggestions: [place, `${place}-东门`, `${place}-地下停车场`] }), "item:0", {
    state: `联想结果第一条是“${place}”`,
    next: "点击第一条",
    purpose: "设为目的地",
    subtask: `选择${place}`,
  });
  const s = f.screen();
  s.statusBar();
  s.navBar(`去 ${place}`);
  s.systemNav();
  s.hero("#e6ecdf", `全程约${rng.int(8, 40)}公里`, 260);
  s.list(
    [
      { title: "快车", sub: "预计3分钟接驾", price: price(rng, 35, 90) },
      { title: "特惠快车", sub: "预计6分钟接驾", price: price(rng, 30, 80) },
      { title: "专车", sub: "舒适型", price: price(rng, 90, 160) },
    ],
    { compact: true, thumb: false },
  );
  s.button("确认呼叫快车");
  const confirm = s.finish();
  f.tap(confirm, "button:确认呼叫快车", {
    state: "已显示车型和预估价，默认选中快车",
    next: "点击“确认呼叫快车”",
    purpose: "开始叫车",
    subtask: "点击确认呼叫快车",
  });
  f.wait(P.loading(f, "等待应答", "正在为您呼叫附近司机…"), 3, {
    state: "正在等待司机接单",
    next: "等待",
    purpose: "让司机接单",
    subtask: "等待3秒",
  });
  f.end(P.statusPage(f, "行程", true, "司机已接单", `京A·${rng.int(10000, 99999)} 白色 · 预计3分钟到达`), "success", {
    state: "页面显示司机已接单",
    next: "结束任务",
    purpose: "叫车成功",
    subtask: "任务完成",
  });
  return instruction;
}

function contentFlow(f: Flow): string {
  const { rng, app } = f;
  const q = rng.pick(app.queries);
  const goal = app.name === "今日头条" ? rng.pick(["title", "copy"] as const) : rng.pick(["like", "fav", "copy"] as const);
  const failing = f.extras && rng.chance(0.06);
  const noun = { 小红书: "笔记", 知乎: "回答", 微博: "微博", 今日头条: "新闻" }[app.name] ?? "内容";
  const instruction = {
    title: `在今日头条搜索“${q}”，告诉我第一条新闻的标题`,
    like: `在${app.name}搜索“${q}”，给第一条${noun}点赞`,
    fav: `在${app.name}搜索${q}，收藏第一篇${noun}`,
    copy: `在${app.name}搜索“${q}”，打开第一条${noun}并复制正文第一段`,
  }[goal];
  enterApp(f, `搜索${q}`);
  const home = P.home(f);
  if (f.extras && rng.chance(0.25) && f.has(home, "feed")) {
    f.swipe(home, "feed", "up", {
      state: `当前在${app.name}首页的推荐流`,
      next: "向上滑动浏览",
      purpose: "看看有没有相关内容",
      subtask: "向上滑动首页",
    });
  }
  f.tap(P.home(f), "search", {
    state: `当前在${app.name}首页，顶部有搜索框`,
    next: "点击搜索框",
    purpose: `以便搜索${q}`,
    subtask: "点击搜索框",
  });
  const typed = f.type(P.search(f, { text: "" }), q, {
    state: "已进入搜索页，输入框已激活",
    next: `输入“${q}”`,
    purpose: `以便查找相关${noun}`,
    subtask: `输入“${q}”`,
  });
  f.sys(P.search(f, { text: typed, suggestions: [typed, `${typed} 最新`, `${typed} 热门`] }), "Enter", {
    state: `已输入“${typed}”`,
    next: "按回车键搜索",
    purpose: "查看搜索结果",
    subtask: "按回车键搜索",
  });
  if (failing) {
    f.end(P.statusPage(f, "搜索", false, "网络不给力", "请检查网络设置后重试", "重新加载"), "failure", {
      state: "页面显示“网络不给力”，无法加载结果",
      next: "结束任务并报告失败",
      purpose: "当前无法完成搜索",
      subtask: "任务失败，结束",
    });
    return instruction;
  }
  const posts: ListItem[] = Array.from({ length: 6 }, (_, i) => ({
    title: `${q}${rng.pick(["｜亲测有效", "，一篇讲清楚", "（建议收藏）", "，我的真实经历", "最新进展"])}`,
    sub: `${rng.pick(["小鹿爱旅行", "清风徐来", "数据君", "科技早知道", "阿杰在路上"])} · ${rng.int(1, 99)}${rng.chance(0.5) ? "万" : "00"}赞`,
    meta: "",
    thumb: THUMBS[(i * 3 + 6) % THUMBS.length],
  }));
  const res = P.results(f, q, posts, { tabs: ["综合", "最新", "用户", "图片"] });
  const p0 = posts[0]!;
  if (goal === "title") {
    f.answer(res, p0.title, {
      state: `当前是“${q}”的搜索结果，第一条标题为“${p0.title}”`,
      next: "回答第一条新闻的标题",
      purpose: "把结果告诉用户",
      subtask: `回答：${p0.title}`,
    });
    f.end(res, "success", { state: "已回答标题", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
    return instruction;
  }
  const body = [
    `关于“${q}”，先说结论：`,
    "第一，提前做好准备，别临时抱佛脚；",
    "第二，多看官方渠道的信息；",
    "第三，量力而行，适合自己最重要。",
    "以上都是个人经验，欢迎补充～",
  ];
  const icons = ["点赞", "收藏", "评论"];
  f.tapChoice(
    res,
    "item:0",
    {
      state: `当前是“${q}”的搜索结果，第一条是“${p0.title}”`,
      next: "点击第一条结果",
      purpose: `打开这条${noun}`,
      subtask: `点击第一条${noun}`,
    },
    { key: "item:1", page: () => P.post(f, posts[1]!, body, { icons }), what: `第二条${noun}` },
  );
  const page = P.post(f, p0, body, { icons });
  if (goal === "copy") {
    f.tap(
      page,
      "body",
      { state: `已打开${noun}详情，正文在图片下方`, next: "长按正文第一段", purpose: "调出复制菜单", subtask: "长按正文文字" },
      1.5,
    );
    f.tap(P.post(f, p0, body, { icons, menu: true }), "menu:复制", {
      state: "正文上方弹出了“复制/搜索/分享”菜单",
      next: "点击“复制”",
      purpose: "复制正文",
      subtask: "点击复制",
    });
    f.end(P.post(f, p0, body, { icons, toast: "已复制" }), "success", {
      state: "提示“已复制”",
      next: "结束任务",
      purpose: "任务完成",
      subtask: "任务完成",
    });
  } else {
    const label = goal === "like" ? "点赞" : "收藏";
    f.tap(page, `action:${label}`, {
      state: `已打开${noun}详情，底部有点赞、收藏、评论`,
      next: `点击“${label}”`,
      purpose: `给这条${noun}${label}`,
      subtask: `点击底部的${label}按钮`,
    });
    f.end(P.post(f, p0, body, { icons, toast: `${label}成功` }), "success", {
      state: `提示“${label}成功”`,
      next: "结束任务",
      purpose: "任务完成",
      subtask: "任务完成",
    });
  }
  return instruction;
}

function chatFlow(f: Flow): string {
  const { rng, app } = f;
  const who = rng.pick(app.queries);
  const text = rng.pick(["今晚七点开会，别迟到", "我到家了", "资料已经发你邮箱了", "周末一起吃饭吗？", "收到，谢谢！"]);
  const collect = rng.chance(0.3);
  const instruction = collect ? `在${app.name}里把${who}发来的最后一条消息收藏起来` : `给${app.name}联系人“${who}”发消息：${text}`;
  enterApp(f, collect ? `找到${who}的消息` : `给${who}发消息`);
  const others = rng.sample(["文件传输助手", "家人群", "公司通知", "快递小哥", "订阅号消息", "腾讯新闻"], 5);
  const chats: ListItem[] = [...others.slice(0, 3), who, ...others.slice(3)].map((t, i) => ({
    title: t,
    sub: rng.pick(["[图片]", "好的", "明天见", "收到", "[语音]"]),
    thumb: THUMBS[(i * 3 + 1) % THUMBS.length],
  }));
  const home = P.home(f, { list: chats });
  const msgs = [
    { mine: false, text: "在吗？" },
    { mine: true, text: "在的，怎么了" },
    { mine: false, text: rng.pick(["明天上午十点的会改到下午了", "帮我带一份早餐", "记得带上合同"]) },
  ];
  if (f.has(home, "item:3") && rng.chance(0.6)) {
    f.tap(home, "item:3", {
      state: `当前在${app.name}聊天列表，能看到“${who}”的会话`,
      next: `点击“${who}”的会话`,
      purpose: "进入聊天窗口",
      subtask: `点击${who}`,
    });
  } else {
    f.tap(home, "search", {
      state: `当前在${app.name}首页，顶部有搜索框`,
      next: "点击搜索框",
      purpose: `以便找到${who}`,
      subtask: "点击顶部搜索框",
    });
    const typed = f.type(P.search(f, { text: "", history: [] }), who, {
      state: "已进入搜索页，输入框已激活",
      next: `输入“${who}”`,
      purpose: "搜索联系人",
      subtask: `输入“${who}”`,
    });
    f.tap(P.search(f, { text: typed, suggestions: [who, `${who}(群聊)`, `包含“${who}”的聊天记录`] }), "item:0", {
      state: `搜索结果第一条是联系人“${who}”`,
      next: "点击该联系人",
      purpose: "进入聊天窗口",
      subtask: `点击联系人${who}`,
    });
  }
  if (collect) {
    f.tap(
      P.chat(f, who, msgs, { input: "", focused: false }),
      "msg:2",
      {
        state: `已进入与${who}的聊天，最后一条消息是“${msgs[2]!.text}”`,
        next: "长按最后一条消息",
        purpose: "调出消息菜单",
        subtask: "长按最后一条消息",
      },
      1,
    );
    f.tap(P.chat(f, who, msgs, { input: "", focused: false, menuOn: 2 }), "menu:收藏", {
      state: "消息上方弹出了菜单：复制、转发、收藏、删除",
      next: "点击“收藏”",
      purpose: "收藏这条消息",
      subtask: "点击收藏",
    });
    f.end(P.chat(f, who, msgs, { input: "", focused: false, toast: "已收藏" }), "success", {
      state: "提示“已收藏”",
      next: "结束任务",
      purpose: "任务完成",
      subtask: "任务完成",
    });
    return instruction;
  }
  f.tap(P.chat(f, who, msgs, { input: "", focused: false }), "input", {
    state: `已进入与${who}的聊天窗口，底部有输入框`,
    next: "点击输入框",
    purpose: "准备输入消息",
    subtask: "点击底部输入框",
  });
  const typed = f.type(P.chat(f, who, msgs, { input: "", focused: true }), text, {
    state: "输入框已激活，键盘已弹出",
    next: `输入“${text}”`,
    purpose: "编辑要发送的消息",
    subtask: `输入“${text}”`,
  });
  f.tap(P.chat(f, who, msgs, { input: typed, focused: true }), "send", {
    state: `输入框中已有“${typed}”`,
    next: "点击“发送”",
    purpose: "把消息发出去",
    subtask: "点击发送按钮",
  });
  f.end(P.chat(f, who, [...msgs, { mine: true, text: typed }], { input: "", focused: true }), "success", {
    state: "消息已出现在聊天窗口中",
    next: "结束任务",
    purpose: "消息已发送",
    subtask: "任务完成",
  });
  return instruction;
}

function officeFlow(f: Flow): string {
  const { rng, app } = f;
  if (rng.chance(0.5)) return chatFlow(f);
  const instruction = "在钉钉上完成今天的上班打卡";
  enterApp(f, "打卡");
  const chats: ListItem[] = ["产品部", "周会群", "陈静", "DING消息", "审批通知"].map((t, i) => ({
    title: t,
    sub: rng.pick(["[文件]", "好的", "会议纪要已更新", "收到"]),
    thumb: THUMBS[i],
  }));
  f.tap(P.home(f, { list: chats }), "bottomTab:工作台", {
    state: "当前在钉钉消息页，底部有“工作台”",
    next: "点击底部的“工作台”",
    purpose: "找到考勤打卡入口",
    subtask: "点击工作台",
  });
  const s = f.screen();
  s.statusBar(app.color, false);
  s.appHeader("工作台");
  s.systemNav();
  s.tabBar(app.tabs, 2);
  s.grid(app.grid.map((label, i) => ({ label, color: THUMBS[(i * 3) % THUMBS.length]! })));
  s.banner("智能人事", "考勤、审批一站搞定", app.color);
  f.tap(s.finish(), "grid:考勤打卡", {
    state: "已进入工作台，应用区有“考勤打卡”",
    next: "点击“考勤打卡”",
    purpose: "进入打卡页面",
    subtask: "点击考勤打卡",
  });
  const punch = (done: boolean) => {
    const p = f.screen("#ffffff");
    p.statusBar();
    p.navBar("考勤打卡");
    p.systemNav();
    p.info({ title: "上班 09:00 · 下班 18:00", tags: ["已进入考勤范围"], lines: ["打卡地点：望京SOHO T1"] });
    if (done) p.status({ ok: true, title: "上班打卡成功", message: `打卡时间 ${f.clock}` });
    else p.button("上班打卡");
    return p.finish();
  };
  f.tap(punch(false), "button:上班打卡", {
    state: "已进入打卡页，显示已进入考勤范围",
    next: "点击“上班打卡”",
    purpose: "完成打卡",
    subtask: "点击上班打卡按钮",
  });
  f.end(punch(true), "success", { state: "页面显示“上班打卡成功”", next: "结束任务", purpose: "打卡已完成", subtask: "任务完成" });
  return instruction;
}

function payFlow(f: Flow): string {
  const { rng } = f;
  const goal = rng.pick(["ride", "bill", "recharge"] as const);
  const instruction = {
    ride: "打开支付宝的公交乘车码",
    bill: "在支付宝查看本月账单，告诉我本月总支出",
    recharge: "用支付宝给本机号码充值50元话费，到确认付款页面即可",
  }[goal];
  enterApp(f, { ride: "打开乘车码", bill: "查看账单", recharge: "充话费" }[goal]);
  const home = P.home(f);
  if (goal === "ride") {
    f.tap(home, "grid:出行", {
      state: "当前在支付宝首页，应用区有“出行”",
      next: "点击“出行”",
      purpose: "找到乘车码",
      subtask: "点击出行图标",
    });
    const list = P.listPage(
      f,
      "出行",
      ["乘车码", "火车票", "机票", "打车", "共享单车"].map((t, i) => ({
        title: t,
        sub: ["公交地铁扫码乘车", "12306官方授权", "特价机票", "快速叫车", "扫码骑行"][i],
        thumb: THUMBS[i],
      })),
    );
    f.tap(list, "item:0", { state: "已进入出行页，第一项是“乘车码”", next: "点击“乘车码”", purpose: "打开乘车码", subtask: "点击乘车码" });
    const s = f.screen("#1677ff");
    s.statusBar("#1677ff", false);
    s.navBar("乘车码");
    s.systemNav();
    s.y += s.d(24);
    const x = s.d(60);
    const w = s.W - 2 * x;
    s.rect(x - s.d(20), s.y, w + s.d(40), w + s.d(100), "#ffffff", s.d(16));
    for (let i = 0; i < 7; i++)
      for (let j = 0; j < 7; j++)
        if ((i * 3 + j * 5 + i * j) % 3 !== 0)
          s.rect(x + Math.round((j * w) / 7), s.y + s.d(20) + Math.round((i * w) / 7), Math.ceil(w / 7), Math.ceil(w / 7), "#111111");
    s.label(s.W / 2, s.y + w + s.d(40), s.d(30), "北京公交 · 请将二维码对准扫码口", { size: s.d(13), fill: "#555555", anchor: "middle" });
    f.end(s.finish(), "success", { state: "乘车码已显示", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  } else if (goal === "bill") {
    f.tap(home, "grid:账单", {
      state: "当前在支付宝首页，应用区有“账单”",
      next: "点击“账单”",
      purpose: "查看本月支出",
      subtask: "点击账单图标",
    });
    const total = `¥${rng.int(1, 8)},${rng.int(100, 999)}.${rng.int(10, 99)}`;
    const bills = ["美团外卖", "滴滴出行", "盒马", "中国移动", "淘宝"].map((t, i) => ({
      title: t,
      sub: `6月${20 - i * 3}日 ${rng.int(8, 22)}:${rng.int(10, 59)}`,
      price: `-${rng.int(8, 300)}.${rng.int(10, 99)}`,
      thumb: THUMBS[i + 2],
    }));
    const page = P.listPage(f, "账单", bills, { header: { price: total, title: "本月支出" } });
    f.answer(page, `本月总支出${total}`, {
      state: `已进入账单页，顶部显示本月支出${total}`,
      next: "回答本月总支出",
      purpose: "把结果告诉用户",
      subtask: `回答：${total}`,
    });
    f.end(page, "success", { state: "已回答本月支出", next: "结束任务", purpose: "任务完成", subtask: "任务完成" });
  } else {
    f.tap(home, "grid:充值中心", {
      state: "当前在支付宝首页，应用区有“充值中心”",
      next: "点击“充值中心”",
      purpose: "进入话费充值",
      subtask: "点击充值中心",
    });
    const recharge = (dialog: boolean) => {
      const s = f.screen();
      s.statusBar();
      s.navBar("充值中心");
      s.systemNav();
      s.fields([{ label: "手机号", value: "138 **** 6621" }]);
      s.grid(
        ["10元", "20元", "30元", "50元", "100元", "200元"].map((label, i) => ({ label, color: THUMBS[i]! })),
        3,
      );
      if (dialog) s.dialog({ title: "确认付款", message: "话费充值 50元 · 实付 ¥49.90", buttons: ["取消", "立即付款"], color: "#1677ff" });
      return s.finish();
    };
    f.tap(recharge(false), "grid:50元", {
      state: "已进入充值中心，号码为本机号码，下方有充值金额",
      next: "点击“50元”",
      purpose: "选择充值金额",
      subtask: "选择50元",
    });
    f.end(recharge(true), "success", {
      state: "弹出确认付款窗口，实付¥49.90",
      next: "结束任务",
      purpose: "已到付款确认页面",
      subtask: "任务完成",
    });
  }
  return instruction;
}

function photoFlow(f: Flow): string {
  const { rng } = f;
  const filter = rng.pick(f.app.queries);
  const instruction = `用美图秀秀给相册里最新的一张照片加上“${filter}”滤镜并保存`;
  enterApp(f, "编辑照片");
  f.tap(P.home(f), "grid:图片美化", {
    state: "当前在美图秀秀首页，有“图片美化”入口",
    next: "点击“图片美化”",
    purpose: "选择要编辑的照片",
    subtask: "点击图片美化",
  });
  f.tap(P.album(f), "photo:0", {
    state: "已打开相册，左上角第一张是最新的照片",
    next: "点击第一张照片",
    purpose: "打开编辑器",
    subtask: "点击第一张照片",
  });
  const color = THUMBS[1]!;
  f.tap(P.editor(f, color, {}), "tab:滤镜", {
    state: "已进入编辑页面，下方有滤镜、调色等工具",
    next: "点击“滤镜”",
    purpose: "打开滤镜列表",
    subtask: "点击滤镜",
  });
  const filters = ["原图", "清新", "胶片", "日系", "黑白", "复古"];
  f.tap(P.editor(f, color, { filters }), `chip:${filters.indexOf(filter)}`, {
    state: "滤镜列表已展开",
    next: `点击“${filter}”滤镜`,
    purpose: "应用该滤镜",
    subtask: `选择${filter}滤镜`,
  });
  f.tap(P.editor(f, color, { filters, applied: filter }), "header:保存", {
    state: `照片已应用“${filter}”滤镜`,
    next: "点击右上角“保存”",
    purpose: "保存编辑后的照片",
    subtask: "点击保存",
  });
  f.end(P.statusPage(f, "保存成功", true, "已保存到相册", "可在系统相册中查看"), "success", {
    state: "提示已保存到相册",
    next: "结束任务",
    purpose: "任务完成",
    subtask: "任务完成",
  });
  return instruction;
}

const FLOWS: Record<FlowKind, (f: Flow) => string> = {
  shop: shopFlow,
  food: foodFlow,
  review: reviewFlow,
  travel: travelFlow,
  train: trainFlow,
  music: musicFlow,
  video: videoFlow,
  map: mapFlow,
  ride: rideFlow,
  content: contentFlow,
  chat: chatFlow,
  office: officeFlow,
  pay: payFlow,
  photo: photoFlow,
};

/**
 * Build trajectory `index` from its own seed. The app cycles through all 28 so any run of 28 covers
 * every app. Optional detours and mistakes are retried away when a run would exceed MAX_STEPS.
 */
export function buildTrajectory(seed: number, index: number): DraftTrajectory {
  const app = APPS[index % APPS.length]!;
  for (let attempt = 0; ; attempt++) {
    const rng = createRng((seed + attempt * 0x632be5ab) >>> 0);
    const size = pickSize(rng);
    const last = attempt >= 4;
    const f = new Flow(rng, app, size, rng.int(7 * 60, 22 * 60), !last, !last);
    const instruction = FLOWS[app.kind](f);
    if ((f.steps.length >= MIN_STEPS && f.steps.length <= MAX_STEPS) || last) {
      if (f.steps.length > MAX_STEPS) throw new Error(`demo flow ${app.kind} makes ${f.steps.length} steps without detours`);
      return { app, instruction, size, steps: f.steps };
    }
  }
}
