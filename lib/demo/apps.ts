/**
 * The 28 apps of the demo set, with the look and the task material each flow draws from.
 * Flows live in flows.ts; an app names its flow kind and the pools of queries it uses.
 */

export type FlowKind = "shop" | "food" | "review" | "travel" | "train" | "music" | "video" | "map" | "ride" | "content" | "chat" | "pay" | "photo" | "office";

export type AppDef = {
  name: string;
  color: string;
  onColor: string;
  kind: FlowKind;
  searchHint: string;
  tabs: string[];
  grid: string[];
  /** Search queries / destinations / songs / contacts, depending on the kind. */
  queries: string[];
};

const W = "#ffffff";
const K = "#222222";

export const APPS: AppDef[] = [
  { name: "淘宝", color: "#ff5000", onColor: W, kind: "shop", searchHint: "搜索宝贝", tabs: ["首页", "视频", "消息", "购物车", "我的淘宝"], grid: ["天猫", "聚划算", "淘宝直播", "天猫超市", "充值中心", "飞猪旅行", "领金币", "拍卖", "淘宝买菜", "分类"], queries: ["无线蓝牙耳机", "夏季连衣裙", "机械键盘", "保温杯", "儿童书包"] },
  { name: "京东", color: "#e1251b", onColor: W, kind: "shop", searchHint: "搜索商品", tabs: ["首页", "新品", "逛", "购物车", "我的"], grid: ["京东超市", "数码电器", "京东服饰", "京东生鲜", "京东到家", "充值缴费", "领京豆", "领券", "PLUS会员", "全部"], queries: ["小米14手机", "戴森吹风机", "洗衣凝珠", "4K显示器", "空气炸锅"] },
  { name: "拼多多", color: "#e02e24", onColor: W, kind: "shop", searchHint: "搜索商品", tabs: ["首页", "多多视频", "直播", "聊天", "个人中心"], grid: ["百亿补贴", "多多买菜", "限时秒杀", "充值中心", "断码清仓", "9块9特卖", "签到", "领券", "品牌馆", "更多"], queries: ["抽纸 30包", "夏季拖鞋", "typec数据线", "砂糖橘 5斤", "垃圾袋"] },
  { name: "闲鱼", color: "#ffda44", onColor: K, kind: "shop", searchHint: "搜索闲置宝贝", tabs: ["闲鱼", "会玩", "卖闲置", "消息", "我的"], grid: ["手机", "数码", "游戏交易", "租房", "图书", "衣服", "家电", "回收", "潮玩", "更多"], queries: ["二手iPad", "Switch游戏机", "索尼微单相机", "公路自行车", "考研资料"] },
  { name: "得物", color: "#01c2c3", onColor: W, kind: "shop", searchHint: "搜索商品", tabs: ["首页", "购买", "鉴别", "消息", "我"], grid: ["球鞋", "潮服", "手表", "美妆", "箱包", "配饰", "数码", "家居", "潮玩", "全部"], queries: ["AJ1篮球鞋", "北面羽绒服", "始祖鸟冲锋衣", "新百伦530"] },
  { name: "唯品会", color: "#f10180", onColor: W, kind: "shop", searchHint: "搜索品牌或商品", tabs: ["首页", "分类", "特卖", "购物车", "我的"], grid: ["女装", "男装", "美妆", "运动", "鞋包", "童装", "家居", "超市", "奢品", "全部"], queries: ["阿迪达斯运动裤", "雅诗兰黛面霜", "耐克T恤", "羊毛大衣"] },
  { name: "盒马", color: "#00a0e9", onColor: W, kind: "shop", searchHint: "搜索商品", tabs: ["首页", "分类", "盒马小镇", "购物车", "我的"], grid: ["水果", "蔬菜", "肉禽蛋", "海鲜水产", "乳品烘焙", "熟食", "酒水", "速食", "日用", "全部"], queries: ["车厘子", "纯牛奶", "三文鱼", "鲜活大虾", "鸡蛋"] },
  { name: "美团", color: "#ffd100", onColor: K, kind: "food", searchHint: "搜索商家、商品", tabs: ["首页", "视频", "消息", "购物车", "我的"], grid: ["外卖", "美食", "酒店民宿", "休闲玩乐", "电影演出", "打车", "买药", "跑腿", "团购", "全部"], queries: ["黄焖鸡米饭", "麻辣烫", "瑞幸咖啡", "肯德基", "煲仔饭"] },
  { name: "饿了么", color: "#0091ff", onColor: W, kind: "food", searchHint: "搜索商家、美食", tabs: ["首页", "推荐", "订单", "我的"], grid: ["美食", "甜品饮品", "超市便利", "水果", "买药", "跑腿", "早餐", "夜宵", "鲜花", "全部"], queries: ["酸辣粉", "奶茶", "牛肉面", "汉堡", "沙拉"] },
  { name: "大众点评", color: "#ff6633", onColor: W, kind: "review", searchHint: "搜索商户、地点", tabs: ["首页", "视频", "消息", "我的"], grid: ["美食", "电影", "酒店", "休闲", "丽人", "亲子", "景点", "健身", "KTV", "全部"], queries: ["火锅", "日料", "烤肉", "咖啡馆", "川菜"] },
  { name: "飞猪", color: "#ffc900", onColor: K, kind: "travel", searchHint: "搜索目的地、酒店", tabs: ["首页", "目的地", "消息", "行程", "我的"], grid: ["酒店", "机票", "火车票", "门票", "度假", "签证", "租车", "民宿", "邮轮", "全部"], queries: ["杭州", "三亚", "成都", "西安", "厦门"] },
  { name: "携程", color: "#2681ff", onColor: W, kind: "travel", searchHint: "搜索目的地、酒店、景点", tabs: ["首页", "消息", "行程", "我的"], grid: ["酒店", "机票", "火车票", "旅游", "门票", "汽车票", "攻略", "民宿", "用车", "全部"], queries: ["上海", "北京", "大理", "青岛", "重庆"] },
  { name: "12306", color: "#3b99fc", onColor: W, kind: "train", searchHint: "搜索车次、车站", tabs: ["首页", "出行服务", "订单", "我的"], grid: ["车票预订", "候补购票", "积分兑换", "约车服务", "餐饮特产", "遗失物品", "中转换乘", "时刻表", "温馨服务", "更多"], queries: ["上海", "广州南", "杭州东", "南京南", "武汉"] },
  { name: "网易云音乐", color: "#ec4141", onColor: W, kind: "music", searchHint: "搜索歌曲、歌手", tabs: ["发现", "播客", "我的", "关注", "社区"], grid: ["每日推荐", "私人FM", "歌单", "排行榜", "有声书", "数字专辑", "直播", "关注新歌", "歌房", "更多"], queries: ["晴天 周杰伦", "起风了", "孤勇者", "稻香", "海阔天空"] },
  { name: "QQ音乐", color: "#31c27c", onColor: W, kind: "music", searchHint: "搜索歌曲、歌手、专辑", tabs: ["首页", "推荐", "动态", "我的"], grid: ["歌手", "排行", "分类歌单", "电台", "一起听", "听书", "数字专辑", "新歌", "K歌", "更多"], queries: ["七里香", "光年之外", "夜曲", "平凡之路", "小幸运"] },
  { name: "抖音", color: "#161823", onColor: W, kind: "video", searchHint: "搜索你感兴趣的内容", tabs: ["首页", "朋友", "拍摄", "消息", "我"], grid: ["直播", "同城", "商城", "团购", "热点", "小游戏", "放映厅", "音乐", "知识", "更多"], queries: ["猫咪搞笑视频", "红烧肉做法", "居家健身教程", "旅行vlog"] },
  { name: "哔哩哔哩", color: "#fb7299", onColor: W, kind: "video", searchHint: "搜索视频、番剧、UP主", tabs: ["首页", "动态", "会员购", "我的"], grid: ["直播", "推荐", "热门", "动画", "影视", "番剧", "知识", "科技", "游戏", "更多"], queries: ["Python入门教程", "原神攻略", "高数期末复习", "纪录片 河西走廊"] },
  { name: "高德地图", color: "#1a6dff", onColor: W, kind: "map", searchHint: "搜索地点、公交、地铁", tabs: ["首页", "附近", "消息", "打车", "我的"], grid: ["美食", "酒店", "加油站", "停车场", "景点", "地铁", "打车", "骑行", "公交", "更多"], queries: ["北京南站", "上海虹桥火车站", "西湖", "广州塔", "深圳湾公园"] },
  { name: "百度地图", color: "#3385ff", onColor: W, kind: "map", searchHint: "搜地点、查公交、找路线", tabs: ["首页", "附近", "出行", "我的"], grid: ["美食", "酒店", "加油站", "停车场", "景点", "地铁", "打车", "骑行", "充电站", "更多"], queries: ["首都国际机场", "故宫博物院", "南京路步行街", "天府广场"] },
  { name: "滴滴出行", color: "#fc9153", onColor: W, kind: "ride", searchHint: "您要去哪儿", tabs: ["出行", "优惠", "消息", "我的"], grid: ["快车", "专车", "出租车", "顺风车", "代驾", "青桔骑行", "拼车", "租车", "公交", "更多"], queries: ["国贸大厦", "浦东国际机场", "中关村软件园", "杭州东站"] },
  { name: "小红书", color: "#ff2442", onColor: W, kind: "content", searchHint: "搜索笔记、用户", tabs: ["首页", "购物", "发布", "消息", "我"], grid: ["关注", "发现", "附近", "直播", "穿搭", "美食", "旅行", "家居", "健身", "更多"], queries: ["成都三日游攻略", "减脂餐", "露营装备推荐", "通勤穿搭"] },
  { name: "知乎", color: "#0066ff", onColor: W, kind: "content", searchHint: "搜索问题、答案、人", tabs: ["首页", "会员", "发布", "消息", "我的"], grid: ["关注", "推荐", "热榜", "想法", "圆桌", "专栏", "Live", "书店", "盐选", "更多"], queries: ["如何高效学习", "程序员如何转行", "年轻人该不该买房", "怎样提高睡眠质量"] },
  { name: "微博", color: "#ff8200", onColor: W, kind: "content", searchHint: "搜索微博、用户、话题", tabs: ["首页", "视频", "发现", "消息", "我"], grid: ["热搜", "超话", "同城", "视频", "新鲜事", "榜单", "明星", "体育", "科技", "更多"], queries: ["神舟飞船发射", "高考作文题", "端午节放假安排", "台风最新消息"] },
  { name: "今日头条", color: "#f04142", onColor: W, kind: "content", searchHint: "搜索你想看的", tabs: ["首页", "视频", "任务", "我的"], grid: ["推荐", "热榜", "本地", "科技", "财经", "体育", "健康", "国际", "军事", "更多"], queries: ["新能源汽车销量", "明天天气", "世界杯预选赛", "人工智能新政"] },
  { name: "微信", color: "#07c160", onColor: W, kind: "chat", searchHint: "搜索", tabs: ["微信", "通讯录", "发现", "我"], grid: [], queries: ["张伟", "妈妈", "李老师", "项目组", "王经理"] },
  { name: "钉钉", color: "#3296fa", onColor: W, kind: "office", searchHint: "搜索联系人、群、聊天记录", tabs: ["消息", "文档", "工作台", "通讯录", "我的"], grid: ["考勤打卡", "审批", "日志", "钉盘", "DING", "会议", "智能填表", "公告", "签到", "更多"], queries: ["陈静", "产品部", "刘洋", "周会群"] },
  { name: "支付宝", color: "#1677ff", onColor: W, kind: "pay", searchHint: "搜索服务、应用", tabs: ["首页", "理财", "视频", "消息", "我的"], grid: ["扫一扫", "收付款", "出行", "卡包", "账单", "余额宝", "花呗", "充值中心", "芭芭农场", "更多"], queries: ["乘车码", "账单", "充值中心"] },
  { name: "美图秀秀", color: "#ff5e95", onColor: W, kind: "photo", searchHint: "搜索模板、玩法", tabs: ["首页", "模板", "我的"], grid: ["图片美化", "人像美容", "拼图", "视频剪辑", "AI绘画", "证件照", "消除笔", "抠图", "滤镜", "更多"], queries: ["清新", "胶片", "日系", "黑白"] },
];

export const APP_NAMES = APPS.map((a) => a.name);

/** Thumbnail colours for list items and feed cards. */
export const THUMBS = ["#f6c177", "#9ccfd8", "#c4a7e7", "#ebbcba", "#a3be8c", "#88c0d0", "#d08770", "#b48ead", "#e5c07b", "#7fb4ca"];
