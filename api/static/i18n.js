// The page's words in English and Chinese: every heading, button, status line and error (keyed by the API's
// error code, never its field path). Static HTML names its text with data-i18n attributes.

const WORDS = {
  en: {
    // unsaved fixes, editing a game's hand, the layout at the table (issue 35 items 2, 7, 13)
    unsaved: "Unsaved changes: kept on this device until you save.",
    unsaved_not_kept: "Unsaved changes: save them before you leave (this device cannot keep a copy).",
    draft_restored: "Your unsaved changes to this photo are back: save to keep them.",
    edit_hand: "Edit hand {n}", edit_hand_title: "Hand {n}: {hand}", edit_result: "The hand's result",
    edit_win: "A win", edit_winner: "Winner", edit_discarder: "Won on the discard of",
    edit_use_scored: "Its tiles: the hand scored above", edit_save: "Save this hand", edit_cancel: "Cancel",
    edit_needs_scored: "A win needs its tiles: score the hand above first, then tick “the hand scored above”.",
    game_hand_edited: "Hand {n} changed: {hand}.",
    game_changed_meanwhile: "The game changed on another phone meanwhile: this is it now. Try again.",
    title: "Fanshot 番拍 — score a mahjong hand from a photo", switch_language: "中文", rules: "Rules",
    take_photo: "Take or choose a photo", photo_alt: "Your photo, with the tiles read from it",
    hint: "Tap a tile (on the photo or below) to correct it. Orange: uncertain; blue: fixed or saved by you; dashed: not in the hand.",
    suggestions: "Suggested fixes", suggestions_hint: "The tiles a fix changes are outlined in pink on the photo.", apply: "Apply", suggestion_p: "likely {p}%",
    hand: "Hand", standing: "Standing tiles", flowers: "Flowers", tray: "Other tiles on the table",
    tray_hint: "Not part of the hand, but kept in the saved label. Tap one to move it into the hand.",
    new_meld: "+ New meld", clear: "Clear", undo: "Undo", cleared: "Hand cleared: its tiles are in the tray.",
    count: "{n} + 1 of {needed}", count_open: "{n} of {needed}", count_aria: "Tiles in the hand",
    how_won: "How it was won", win_type: "Win type", self_draw: "Self-draw", discard: "Discard",
    seat: "Your seat", prevalent: "Prevalent wind", discarder: "Discarder", special_wins: "Special wins",
    kong_replacement: "Kong replacement", last_tile: "Last tile", robbing_kong: "Robbing a kong",
    multi_win: "One of three winners", heavenly: "Heavenly", earthly: "Earthly", human: "Human",
    ghost_mode: "Ghost mode", ghost_default: "rule set default", ghost_none: "none", ghost_white: "white dragon",
    ghost_flip: "flip one", ghost_flip2: "flip two", ghosts: "Ghost tiles", horses: "Horses",
    horses_hint: "Draw {n} horses ({m} when the hand holds a ghost)", stake_unit: "Stake per point",
    stake_fee: "Fee per seat", stake_flower: "Flower stake", stake_kong: "Kong stake", stake_chicken: "Chicken stake",
    liability: "Liability", liable: "Liable seat", kong_fed_by: "Kong fed by (for kong replacement)", nobody: "—",
    not_in_ruleset: "not in this rule set",
    add_to_game: "Add this hand to the game", game: "Game",
    game_hint: "Keep the whole table's score: the dealer and winds move by the rule set, totals add up, every phone with the link follows along.",
    player_east: "East, first dealer", player_south: "South", player_west: "West", player_north: "North",
    start_game: "Start a game with the rule set and stake above", settle_up: "Settle up", record_draw: "Draw",
    undo_hand: "Undo last hand", export_game: "Scoresheet (CSV)", share_game: "Link for the table", leave_game: "Leave this game",
    score: "Score", save: "Save as labelled example", export: "Download the labelled dataset (YOLO zip)",
    api_docs: "API documentation",
    models: "Models", model_base: "shipped models", use_model: "Use",
    model_figures: "{photos} photos held out: F1 {f1} (shipped {base_f1})", active_model: "in use",
    class_figures: "per-class figures",
    adapted_deep: "localiser and classifier trained on your tiles", adapted_head: "last layers refitted (no torch)",
    // teaching Fanshot the table's tiles (issue 34 item 4)
    teach: "Teach Fanshot your tiles",
    teach_offer: "You have saved {n} photos of your tiles. Fanshot can learn from them to read your set better: it takes a few minutes on the server, then you see how well it reads your photos and keep it or roll back.",
    teach_needs: "Photos saved: {n}. Teaching needs at least {needed}; save {more} more to start (from {suggested} on it learns well).",
    teach_weak: "Photos saved: {n}. You can teach now, but it learns your tiles well from {suggested} on: save {more} more for that.",
    teach_enough: "Photos saved: {n}: enough to teach Fanshot your tiles.",
    teach_running: "Learning your tiles: {p}%", time_left_few: "a few seconds left", time_left_s: "about {n} s left",
    time_left_min: "about {n} min left", teach_failed: "Teaching failed: {error}",
    teach_activated: "Done: Fanshot now reads your photos with the new version.",
    teach_not_activated: "Done, but the new version read your photos less well than the one in use, so it was not switched to.",
    teach_nothing: "Done: it learned nothing that reads your photos better, so nothing changed.",
    teach_held_out: "On {photos} of your photos that it did not learn from:", teach_before: "Before (shipped)",
    teach_after: "After", teach_f1: "Tiles read right (F1)", teach_whole: "Photos read without a mistake",
    teach_of: "{n} of {photos}", teach_kind: "How it learned: {kind}.",
    teach_keep: "Keep it", teach_roll_back: "Roll back", teach_use_anyway: "Use it anyway",
    teach_keep_current: "Keep the one in use", teach_kept: "Kept: the new version reads your photos.",
    teach_using: "Now in use: {version}.", teach_rolled_back: "Rolled back: {version} read your photos again.",
    close: "Close", likely: "Most likely", all_tiles: "All tiles", add_tile: "Add a tile", current: "now",
    closeup: "The tile on the photo", back: "Face-down",
    winning: "★ Winning tile", to_standing: "→ Standing", to_meld: "→ Meld {n}", to_new_meld: "→ New meld",
    to_flowers: "→ Flowers", redraw_box: "□ Redraw its box", mark_box: "□ Mark it on the photo",
    out_of_hand: "Out of the hand", draw_on_photo: "□ Draw it on the photo", looks_like: "Box drawn: it looks like {tile} ({p}%).",
    naming_failed: "Box drawn; it could not be named: {error}", not_a_tile: "✕ Not a tile", sure: "{n}% sure",
    chow: "Chow", pung: "Pung", kong: "Exposed kong", kong_added: "Added kong", kong_concealed: "Concealed kong",
    meld_kind: "Meld {n} kind", fed_by: "fed by", fed_by_aria: "Kong made from the discard of", dissolve: "Dissolve",
    kong_face: "Which tile?", kong_face_aria: "The tile of the concealed kong", dealer: "(dealer)",
    preparing: "Preparing the photo…", uploading: "Uploading… {p}%", reading: "Reading the tiles…",
    read: "Read {n} tiles.", read_uncertain: "Read {n} tiles, {low} uncertain.", read_failed: "Could not read the photo: {error}",
    read_none: "No tile read: take the photo again closer, or from above, or add the tiles with +.",
    retry_photo: "Try again",
    // the live viewfinder (issue 39)
    camera: "Camera with framing guide", camera_alt: "The camera's view, with the tiles it finds outlined",
    shutter: "Take the shot", camera_close: "Close the camera", camera_hint: "Hold the phone over the tiles: the shot is taken by itself once they are all in view, big enough and sharp.",
    live_count: "{n} tiles found", live_loading: "Loading the tile finder…", live_steady: "hold steady",
    live_too_small: "move closer: tiles too small", live_cut: "{n} tiles cut at the edge", live_dark: "too dark: more light",
    live_blurred: "blurred: hold still", live_moving: "hold still", live_none: "point the camera at the tiles",
    live_taking: "taking the shot…", live_no_guide: "The tile finder could not load ({error}): take the shot with the button.",
    camera_refused: "The camera is not allowed: allow it in the browser's settings, or choose a photo instead.",
    camera_none: "No camera found: choose a photo instead.", camera_failed: "The camera could not start ({error}): choose a photo instead.",
    kept_offline: "The server cannot be reached: this shot is kept on this device and will be sent when the server is back.",
    kept_sending: "Sending the shot kept on this device…", kept_sent: "A shot kept on this device has been read:",
    kept_open: "open it", kept_refused: "A kept shot was refused, so it is no longer kept: {error}",
    kept_waiting: "Shots kept on this device, waiting for the server: {n}.",
    drag: "Drag a box around the {tile} on the photo.", drag_new: "Drag a box around the tile on the photo.",
    cancel_marking: "Cancel drawing", marking_cancelled: "Drawing cancelled.", naming: "Naming the tile…",
    no_box: "No box drawn: drag across the tile.",
    saved: "Saved ✓ {n} labelled tiles ({time}).", unboxed: "{n} without a box on the photo: mark them so the example teaches the model every tile.",
    not_saved: "Not saved: {error}", save_cancelled: "Not saved.",
    restored: "Your saved work from {time} is restored. Saving again replaces it.",
    confirm_few_tiles: "The photo shows {detected} tiles but only {labelled} would be saved. Save anyway?",
    confirm_no_hand: "The hand is empty: save the {labelled} tiles without a hand?",
    rulesets_failed: "Could not load the rule sets: {error}",
    fan: "fan", points: "points", fixed_points: "{n} points", capped: "capped at {cap} fan",
    limit: "limit hand", fan_name: "Pattern", fan_column: "Fan", payments: "Payments", kong_payments: "Kong payments",
    horses_hit: "Horses {tiles}: hits {n}", no_flowers: "{ruleset} plays without flowers.",
    leave_flowers: "Score without the flowers", switch_ruleset: "Switch to {ruleset}",
    money_per_payer: "Per payer {total} = {parts}", part_hand: "hand", part_horses: "horses", part_flowers: "flowers",
    part_kongs: "kongs",
    waits: "Waits", waits_headline: "{n} tiles: {distance}", waits_ready: "ready", waits_away: "{n} from ready",
    waits_complete: "complete", waits_left: "{n} tiles left that win", waits_wait: "Wait", waits_remaining: "Left",
    waits_useful: "Tiles that help ({n} left)", waits_best: "Best discards first", waits_others: "{n} other discards",
    waits_no_flowers: "Counted without the flowers: this rule set plays none.",
    waits_discard_ready: "Discard {tile} → {distance}, waits on {tiles}",
    waits_discard_useful: "Discard {tile} → {distance}, helped by {tiles}",
    waits_discard_value: " ({n} left, up to {points} pts)", waits_value: "{fan} fan · {points} pts",
    waits_value_one: "{fan} fan · {points} pt",
    game_title: "{wind} round · hand {n} · {dealer} deals", game_hand_title: "{wind} round, {dealer} dealing",
    game_drawn: "Draw", game_win: "{name} {fan} fan", game_not_paid: "{win} (intercepted: not paid)", game_and: ", ",
    game_self_draw: "{wins} self-draw", game_on_discard: "{wins} on {name}'s discard",
    game_same_discard: "Another winner on hand {n}'s discard (multiple winners)",
    game_started: "Game started: share its link with the table.", game_start_failed: "Could not start the game: {error}",
    game_open_failed: "Could not open the game: {error}", game_reconnecting: "Reconnecting to the game…",
    game_link_copied: "Link copied: send it to the table.", game_link_failed: "Copy this link for the table: {url}",
    game_not_recorded: "Not recorded: {error}", game_hand_added: "Hand {n} added: {hand}.",
    game_hand_draw: "Hand {n}: a draw.", game_hand_undone: "Hand {n} undone.",
    // issue 50
    game_already_there: "Hand {n} is already there: {hand}. Another phone has just added it. Add a second hand?",
    game_not_added_twice: "Not added again: hand {n} is already there.",
    edit_hand_changed: "Another phone changed this hand meanwhile: this is it now.",
    edit_hand_gone: "Another phone took this hand out meanwhile: there is nothing to change.",
    kongs_this_hand: "Other players' kongs this hand", kong_add: "Add a kong", kong_player: "Whose kong",
    kong_kind: "Which kong", kong_from: "fed by", kong_remove: "Remove this kong",
    game_kong_money: "Kongs: {list}", live_unsure: "the tiles are unclear: hold still, or come a little closer",
    // end issue 50
    game_delete_hand: "Delete hand {n}", game_delete_confirm: "Delete hand {n} ({hand})? Every later hand is counted again.",
    type_hand: "Or type the hand", type_hand_button: "Put in the hand",
    errors: {
      not_winning: "These tiles do not make a winning hand. Check the tiles and the melds.",
      too_many_tiles: "The hand has too many tiles: a winning hand has 14 (a kong counts as 3).",
      too_few_tiles: "The hand has too few tiles: a winning hand has 14 (a kong counts as 3).",
      winning_tile_missing: "Choose the winning tile (★) among the standing tiles.",
      too_many_copies: "A tile appears more than four times. Check the tiles.",
      bad_tile: "A tile is not one the scorer knows. Check the tiles.",
      bad_meld: "A meld is not a real chow, pung or kong. Check its tiles and kind.",
      bad_context: "Something about how the hand was won does not fit: check the seats, special wins, ghosts and horses.",
      bad_option: "A rule-set option has a value it cannot take.", unknown_option: "The rule set has no such option.",
      not_allowed: "The rule set does not allow this (chow, discard win, flowers, ghosts or horses).",
      below_minimum_fan: "The hand is worth less than the rule set's minimum to win.",
      game_not_found: "That game is not on this server any more: start a new one.",
      unknown_recognition: "The photo of this hand is no longer on the server.",
      method_not_allowed: "The server does not do that: reload the page.",
      unknown_ruleset: "That rule set is unknown.", bad_request: "Some details are not valid: check the numbers you typed.",
      not_found: "That photo is not on this server any more.", too_large: "The photo is too large (20 MB at most).",
      empty: "The file is empty.", not_an_image: "That file is not a photo the server can read.",
      too_many_pixels: "The photo has too many pixels.", truncated: "The photo is cut short: try sending it again.",
      too_thin: "The photo is too small or too thin to hold a hand: crop it less tightly.",
      too_many_scans: "The photo is saved in too many passes to decode quickly: save it again as an ordinary JPEG.",
      model_unavailable: "The tile recogniser is not installed on this server.",
      model_files_missing: "The server has lost the files of the tile recogniser in use: switch to another version under Models.",
      storage_unavailable: "The server cannot store photos right now: try again in a minute.",
      database_unavailable: "The server cannot save right now: try again in a minute.",
      images_unavailable: "The server cannot read photos right now: try again in a minute.",
      too_many_streams: "This device follows too many games at once: close some of their pages.",
      bad_box: "A box lies outside the photo.",
      hand_disagrees: "The hand sent is not the one its tiles make: reload the photo and save again.",
      precondition_failed: "This photo was saved elsewhere meanwhile: reload to see it.",
      // issue 50
      precondition_required: "This page is out of date: reload it, then make the change again.",
      hand_by_number: "This page is out of date: reload it, then make the change again.",
      internal: "The server failed: try again.", network: "No connection to the server: try again.",
      not_enough_examples: "Save at least two labelled photos first.", busy: "The server is busy with other work (reading photos or adapting); try again shortly.",
      unknown: "Something went wrong ({code}).",
    },
  },
  zh: {
    // unsaved fixes, editing a game's hand, the layout at the table (issue 35 items 2, 7, 13)
    unsaved: "有未保存的修改：保存之前先暂存在本机上。",
    unsaved_not_kept: "有未保存的修改：离开前请先保存（本机无法暂存）。",
    draft_restored: "已恢复你对这张照片未保存的修改：保存后才算数。",
    edit_hand: "修改第 {n} 手", edit_hand_title: "第 {n} 手：{hand}", edit_result: "这一手的结果",
    edit_win: "胡牌", edit_winner: "胡牌的人", edit_discarder: "放炮的人",
    edit_use_scored: "牌用上面算好的这手", edit_save: "保存这一手", edit_cancel: "取消",
    edit_needs_scored: "胡牌要有牌：先在上面算好这手牌，再勾选“牌用上面算好的这手”。",
    game_hand_edited: "第 {n} 手已修改：{hand}。",
    game_changed_meanwhile: "别的手机刚改过这一局：这是现在的样子，请再试一次。",
    title: "番拍 Fanshot — 拍照算番", switch_language: "English", rules: "规则",
    take_photo: "拍照或选择照片", photo_alt: "你的照片和读到的牌",
    hint: "点一张牌（照片上或下方）即可更正。橙色：没把握；蓝色：你改过或保存过；虚线：不在手牌里。",
    suggestions: "建议的更正", suggestions_hint: "更正要改的牌在照片上用粉色框出。", apply: "采用", suggestion_p: "可能性 {p}%",
    hand: "手牌", standing: "立牌", flowers: "花牌", tray: "桌上其他的牌",
    tray_hint: "不算手牌，但仍保存在标注里。点一张可移入手牌。",
    new_meld: "+ 新副露", clear: "清空", undo: "撤销", cleared: "手牌已清空：牌都在下方的其他牌里。",
    count: "{n} + 1 / {needed} 张", count_open: "{n} / {needed} 张", count_aria: "手牌张数",
    how_won: "怎么胡的", win_type: "胡牌方式", self_draw: "自摸", discard: "点炮",
    seat: "你的门风", prevalent: "圈风", discarder: "放炮的人", special_wins: "特殊胡法",
    kong_replacement: "杠上开花", last_tile: "海底捞月", robbing_kong: "抢杠",
    multi_win: "一炮三响", heavenly: "天和", earthly: "地和", human: "人和",
    ghost_mode: "鬼牌玩法", ghost_default: "按规则", ghost_none: "无鬼", ghost_white: "白板做鬼",
    ghost_flip: "翻鬼", ghost_flip2: "翻双鬼", ghosts: "鬼牌", horses: "马牌",
    horses_hint: "抽 {n} 匹马（有鬼时 {m} 匹）", stake_unit: "每分金额",
    stake_fee: "每家台费", stake_flower: "花注", stake_kong: "杠注", stake_chicken: "鸡胡注",
    liability: "包牌", liable: "包牌的人", kong_fed_by: "放杠的人（杠上开花）", nobody: "—",
    not_in_ruleset: "本规则没有",
    add_to_game: "记入牌局", game: "牌局",
    game_hint: "记下整桌的分：庄家和门风按规则轮转，总分自动累加，拿到链接的手机都能同步看到。",
    player_east: "东（首局庄家）", player_south: "南", player_west: "西", player_north: "北",
    start_game: "按上面的规则和金额开一局", settle_up: "结算", record_draw: "流局",
    undo_hand: "撤销上一手", export_game: "记分表（CSV）", share_game: "给同桌的链接", leave_game: "离开这一局",
    score: "计番", save: "保存为标注样本", export: "下载标注数据集（YOLO zip）",
    api_docs: "API 文档",
    models: "模型", model_base: "内置模型", use_model: "使用",
    model_figures: "留出 {photos} 张照片：F1 {f1}（内置 {base_f1}）", active_model: "使用中",
    class_figures: "各牌的数据",
    adapted_deep: "定位模型和分类模型都按你的牌训练过", adapted_head: "只重新拟合了最后一层（未装训练组件）",
    teach: "让番拍认识你的牌",
    teach_offer: "你已经保存了 {n} 张你这副牌的照片。番拍可以从中学习，更准地认出你的牌：服务器上要几分钟，之后你会看到它认你的照片认得怎样，再决定保留还是退回。",
    teach_needs: "已保存照片：{n} 张。学习至少要 {needed} 张：再保存 {more} 张就能开始（{suggested} 张起学得好）。",
    teach_weak: "已保存照片：{n} 张。现在就可以学，但 {suggested} 张起才学得好：再保存 {more} 张。",
    teach_enough: "已保存照片：{n} 张，足够让番拍认识你的牌。",
    teach_running: "正在学习你的牌：{p}%", time_left_few: "还要几秒钟", time_left_s: "大约还要 {n} 秒",
    time_left_min: "大约还要 {n} 分钟", teach_failed: "学习失败：{error}",
    teach_activated: "完成：番拍现在用新版本认你的照片。",
    teach_not_activated: "完成，但新版本认你的照片不如正在用的版本，所以没有换过去。",
    teach_nothing: "完成：没有学到能把你的照片认得更好的东西，所以什么都没变。",
    teach_held_out: "在它没学过的 {photos} 张你的照片上：", teach_before: "之前（内置）",
    teach_after: "之后", teach_f1: "认对的牌（F1）", teach_whole: "一张牌都没认错的照片",
    teach_of: "{photos} 张中 {n} 张", teach_kind: "学习方式：{kind}。",
    teach_keep: "保留", teach_roll_back: "退回", teach_use_anyway: "仍然使用新版本",
    teach_keep_current: "继续用现在的", teach_kept: "已保留：新版本在认你的照片。",
    teach_using: "现在使用：{version}。", teach_rolled_back: "已退回：{version}重新认你的照片。",
    close: "关闭", likely: "最可能", all_tiles: "所有牌", add_tile: "加一张牌", current: "当前",
    closeup: "照片上的这张牌", back: "牌背",
    winning: "★ 胡的牌", to_standing: "→ 立牌", to_meld: "→ 副露 {n}", to_new_meld: "→ 新副露",
    to_flowers: "→ 花牌", redraw_box: "□ 重画框", mark_box: "□ 在照片上标出",
    out_of_hand: "移出手牌", draw_on_photo: "□ 在照片上框出来", looks_like: "已画框：看起来是{tile}（{p}%）。",
    naming_failed: "已画框，但认不出来：{error}", not_a_tile: "✕ 不是牌", sure: "把握 {n}%",
    chow: "吃", pung: "碰", kong: "明杠", kong_added: "补杠", kong_concealed: "暗杠",
    meld_kind: "副露 {n} 类型", fed_by: "放杠", fed_by_aria: "放杠的人", dissolve: "拆开",
    kong_face: "哪张牌？", kong_face_aria: "暗杠是哪张牌", dealer: "（庄）",
    preparing: "正在准备照片…", uploading: "上传中… {p}%", reading: "正在读牌…",
    read: "读到 {n} 张牌。", read_uncertain: "读到 {n} 张牌，{low} 张没把握。", read_failed: "读不了这张照片：{error}",
    read_none: "没有认出牌：请靠近些或从上方重拍，或用 + 添加牌。",
    retry_photo: "再试一次",
    camera: "相机取景（带提示）", camera_alt: "相机画面，框出找到的牌",
    shutter: "拍摄", camera_close: "关闭相机", camera_hint: "把手机举在牌的上方：所有牌都在画面里、够大、清晰时会自动拍摄。",
    live_count: "{n} 张牌已找到", live_loading: "正在加载找牌模型…", live_steady: "请保持不动",
    live_too_small: "请靠近些：牌太小", live_cut: "{n} 张牌被画面边缘切掉", live_dark: "太暗：请加些光",
    live_blurred: "模糊：请拿稳", live_moving: "请拿稳", live_none: "请把相机对准牌",
    live_taking: "正在拍摄…", live_no_guide: "找牌模型加载失败（{error}）：请用按钮拍摄。",
    camera_refused: "没有相机权限：请在浏览器设置里允许，或改为选择照片。",
    camera_none: "没有找到相机：请改为选择照片。", camera_failed: "相机无法启动（{error}）：请改为选择照片。",
    kept_offline: "连不上服务器：这张照片已存在本机，服务器恢复后会自动发送。",
    kept_sending: "正在发送存在本机的照片…", kept_sent: "存在本机的一张照片已读好：",
    kept_open: "打开", kept_refused: "一张存在本机的照片被服务器拒收，已不再保存：{error}",
    kept_waiting: "存在本机、等服务器恢复的照片：{n} 张。",
    drag: "在照片上框出{tile}。", drag_new: "在照片上框出这张牌。",
    cancel_marking: "取消画框", marking_cancelled: "已取消画框。", naming: "正在认牌…",
    no_box: "没有画框：请拖过整张牌。",
    saved: "已保存 ✓ {n} 张标注的牌（{time}）。", unboxed: "{n} 张在照片上没有框：标出来，样本才能教会模型每一张牌。",
    not_saved: "没保存：{error}", save_cancelled: "没保存。",
    restored: "已恢复你 {time} 保存的内容。再保存会覆盖它。",
    confirm_few_tiles: "照片上有 {detected} 张牌，却只会保存 {labelled} 张。仍然保存吗？",
    confirm_no_hand: "手牌是空的：只保存这 {labelled} 张牌的标注吗？",
    rulesets_failed: "规则加载失败：{error}",
    fan: "番", points: "分", fixed_points: "{n} 分", capped: "爆胡，封顶 {cap} 番",
    limit: "满贯", fan_name: "番种", fan_column: "番", payments: "收付", kong_payments: "杠钱",
    horses_hit: "马 {tiles}：中 {n} 匹", no_flowers: "{ruleset}不算花牌。",
    leave_flowers: "不计花牌来算", switch_ruleset: "改用{ruleset}",
    money_per_payer: "每家 {total} = {parts}", part_hand: "番", part_horses: "马", part_flowers: "花", part_kongs: "杠",
    waits: "听牌", waits_headline: "{n} 张：{distance}", waits_ready: "听牌", waits_away: "{n} 向听",
    waits_complete: "和了", waits_left: "还剩 {n} 张能胡", waits_wait: "听", waits_remaining: "余",
    waits_useful: "进张（还剩 {n} 张）", waits_best: "先打最好的", waits_others: "其他 {n} 种打法",
    waits_no_flowers: "不计花牌：这套规则不用花牌。",
    waits_discard_ready: "打 {tile} → {distance}，听 {tiles}",
    waits_discard_useful: "打 {tile} → {distance}，进张 {tiles}",
    waits_discard_value: "（还剩 {n} 张，最多 {points} 分）", waits_value: "{fan} 番 · {points} 分",
    waits_value_one: "{fan} 番 · {points} 分",
    game_title: "{wind}风圈 · 第 {n} 手 · {dealer} 坐庄", game_hand_title: "{wind}风圈，{dealer} 坐庄",
    game_drawn: "流局", game_win: "{name} {fan} 番", game_not_paid: "{win}（截胡：不付）", game_and: "、",
    game_self_draw: "{wins}，自摸", game_on_discard: "{wins}，{name} 放炮",
    game_same_discard: "第 {n} 手的同一张牌还有人胡（一炮多响）",
    game_started: "牌局开始了：把链接发给同桌的人。", game_start_failed: "开不了局：{error}",
    game_open_failed: "打不开这一局：{error}", game_reconnecting: "正在重新连接牌局…",
    game_link_copied: "链接已复制：发给同桌吧。", game_link_failed: "请复制这个链接发给同桌：{url}",
    game_not_recorded: "没记上：{error}", game_hand_added: "第 {n} 手已记入：{hand}。",
    game_hand_draw: "第 {n} 手：流局。", game_hand_undone: "第 {n} 手已撤销。",
    // issue 50
    game_already_there: "第 {n} 手已经记上了：{hand}。别的手机刚记入。还要再记一手吗？",
    game_not_added_twice: "没有重复记入：第 {n} 手已经在了。",
    edit_hand_changed: "别的手机刚改过这一手：这是它现在的样子。",
    edit_hand_gone: "别的手机刚撤销了这一手：没有可改的了。",
    kongs_this_hand: "这一手其他人的杠", kong_add: "加一个杠", kong_player: "谁的杠",
    kong_kind: "哪种杠", kong_from: "放杠的人", kong_remove: "删掉这个杠",
    game_kong_money: "杠钱：{list}", live_unsure: "牌看不清：请拿稳，或靠近一点",
    // end issue 50
    game_delete_hand: "删除第 {n} 手", game_delete_confirm: "删除第 {n} 手（{hand}）？之后各手会重新计算。",
    type_hand: "或者直接输入手牌", type_hand_button: "放进手牌",
    errors: {
      not_winning: "这些牌不成胡。请检查牌和副露。",
      too_many_tiles: "手牌太多了：胡牌要 14 张（杠算 3 张）。",
      too_few_tiles: "手牌太少了：胡牌要 14 张（杠算 3 张）。",
      winning_tile_missing: "请在立牌里选出胡的那张牌（★）。",
      too_many_copies: "有一种牌超过了四张。请检查牌。",
      bad_tile: "有一张牌不认识。请检查牌。",
      bad_meld: "有一组副露不是真正的吃、碰或杠。请检查它的牌和类型。",
      bad_context: "胡牌的情况有不对的地方：请检查座位、特殊胡法、鬼牌和马牌。",
      bad_option: "规则选项的值不对。", unknown_option: "规则没有这个选项。",
      not_allowed: "这套规则不允许这样（吃、点炮、花牌、鬼牌或马牌）。",
      below_minimum_fan: "番数不够这套规则的起胡番。",
      game_not_found: "服务器上已经没有这一局了：请重新开一局。",
      unknown_recognition: "这手牌的照片已经不在服务器上了。",
      method_not_allowed: "服务器不做这个操作：请重新载入页面。",
      unknown_ruleset: "没有这套规则。", bad_request: "有些内容无效：请检查你输入的数字。",
      not_found: "服务器上已经没有这张照片了。", too_large: "照片太大了（最多 20 MB）。",
      empty: "文件是空的。", not_an_image: "这个文件不是服务器能读的照片。",
      too_many_pixels: "照片像素太多了。", truncated: "照片不完整：请重新发送。",
      too_thin: "照片太小或太窄，放不下一手牌：裁剪时请多留一些边。",
      too_many_scans: "这张照片分了太多遍保存，无法快速解码：请重新另存为普通照片。",
      model_unavailable: "服务器没有安装认牌模型。",
      model_files_missing: "服务器找不到正在使用的认牌模型的文件：请在“模型”里换用另一个版本。",
      storage_unavailable: "服务器现在无法保存照片：请一分钟后再试。",
      database_unavailable: "服务器现在无法保存：请一分钟后再试。",
      images_unavailable: "服务器现在无法读取照片：请一分钟后再试。",
      too_many_streams: "这台设备同时关注的牌局太多：请关掉一些牌局页面。",
      bad_box: "有一个框在照片外面。",
      hand_disagrees: "发送的手牌和它的牌对不上：请重新载入照片再保存。",
      precondition_failed: "这张照片刚在别处保存过：请重新载入查看。",
      // issue 50
      precondition_required: "这个页面过时了：请重新载入，再改一次。",
      hand_by_number: "这个页面过时了：请重新载入，再改一次。",
      internal: "服务器出错了：请再试一次。", network: "连不上服务器：请再试一次。",
      not_enough_examples: "请先保存至少两张标注照片。", busy: "服务器正忙（正在读照片或适配），请稍后再试。",
      unknown: "出错了（{code}）。",
    },
  },
};

export const LANGUAGES = Object.keys(WORDS);
let language = "en";

export const currentLanguage = () => language;

export function setLanguage(lang) {
  language = WORDS[lang] ? lang : "en";
}

const phrase = (key) => WORDS[language][key] ?? WORDS.en[key] ?? key;

/** Where a language words a count otherwise (Intl.PluralRules' categories): phrase key -> category -> words.
 *  Chinese has no plural; English words one thing apart ("Read 1 tile.", not "Read 1 tiles."). */
export const PLURAL_FORMS = {
  en: {
    read: { one: "Read 1 tile." }, read_uncertain: { one: "Read 1 tile, {low} uncertain." },
    saved: { one: "Saved ✓ 1 labelled tile ({time})." }, points: { one: "point" }, fixed_points: { one: "1 point" },
    waits_headline: { one: "1 tile: {distance}" }, waits_left: { one: "1 tile left that wins" },
    waits_others: { one: "1 other discard" },
  },
  zh: {},
};

/** The phrase `key` in the current language, in its plural form for the count `values.n` where it has one,
 *  with {name} placeholders filled from `values`. */
export function t(key, values = {}) {
  const forms = typeof values.n === "number" ? PLURAL_FORMS[language][key] : undefined;
  const words = forms?.[new Intl.PluralRules(language).select(values.n)] ?? phrase(key);
  return words.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** The phrase `key` as pieces to append to an element: its {name} placeholders filled from `values`, where a
 *  value may be a DOM node (a tile picture inside a sentence, wherever each language puts it). */
export function tParts(key, values = {}) {
  const fill = (name) => (typeof values[name] === "object" ? values[name] : String(values[name] ?? ""));
  return phrase(key).split(/\{(\w+)\}/).map((piece, i) => (i % 2 ? fill(piece) : piece)).filter((piece) => piece !== "");
}

// Refusals worded by the API's `detail` (issue 35): each names the field at fault and its fix. A refusal is worded
// by the most specific words whose placeholders its detail fills: code@field#reason, code#reason, code@field,
// then the code's own words above. Fields are the request's paths, a meld's index as [].
const REFUSALS = {
  en: {
    fields: {
      "hand.concealed": "{standing}", "hand.flowers": "{flowers}", "hand.winning_tile": "Winning tile",
      "hand.melds[]": "Meld {n}", "hand.melds[].kind": "Meld {n}", "hand.melds[].fed_by": "Meld {n}, fed by",
      "context.win": "{win_type}", "context.seat_wind": "{seat}", "context.prevalent_wind": "{prevalent}",
      "context.discarder": "{discarder}", "context.special": "{special_wins}", "context.liable": "{liable}",
      "context.kong_fed_by": "{kong_fed_by}", "context.ghosts": "{ghosts}", "context.horses": "{horses}",
      "context.stake": "Stakes", "context.stake.unit": "{stake_unit}", "context.stake.fee": "{stake_fee}",
      "context.stake.flower": "{stake_flower}", "context.stake.kong": "{stake_kong}",
      "context.stake.chicken": "{stake_chicken}", "options.ghosts": "{ghost_mode}", ruleset: "{rules}",
      text: "Typed hand",
    },
    errors: {
      "bad_tile#not_a_tile": "“{token}” (character {at}) is not a tile: write digits, then a suit letter: m characters, p dots, s bamboo, z winds and dragons (1-7), e.g. 123m 55z.",
      "bad_tile#no_suit": "“{token}” (character {at}) has no suit letter after it: add m, p, s or z, e.g. {token}m.",
      "bad_tile#no_digits": "“{token}” (character {at}) has no digits before it: write the numbers first, e.g. 123{token}.",
      "bad_tile#flower": "{token} (character {at}) is a flower: add it under Flowers instead.",
      "bad_tile#not_a_flower": "only flowers (1f-8f) belong here.",
      "bad_tile#not_text": "write the tiles as text, e.g. 123m 55z.",
      "bad_meld#brackets": "“{token}” (character {at}) has no partner: close each meld, [555s] exposed or (1111p) concealed.",
      "bad_context#finished": "waits are counted for a hand still being played: clear this, or press Score for a finished hand.",
      "bad_context@context.horses#count": "this hand draws {expected} horses; you entered {given}.",
      "bad_context@context.ghosts#count": "this ghost mode has {expected} ghost tile(s); you entered {given}.",
      "bad_context@context.ghosts#white": "with the white dragon as ghost, the ghost is 白: leave this empty or enter 5z.",
      "bad_context@context.ghosts#no_ghosts": "this rule set plays no ghost tiles: leave this empty, or choose a ghost mode.",
      "bad_context#range": "enter a number from 0 to {most}; {given} is not one.",
      "bad_context#amount": "the payments grow too large to count exactly: lower the stakes.",
      "bad_context#needs_win": "{special} is won by {win} only: choose {win} above, or untick {special}.",
      "bad_context#heavenly": "{special} is the dealer's self-draw on the first turn: choose Self-draw with East as your seat, or untick it.",
      "bad_context#earthly": "{special} is another player's self-draw on the first turn: choose Self-draw with a seat other than East, or untick it.",
      "bad_context#human": "{special} is a win on the dealer's first discard: choose Discard, East as the discarder and another seat as yours, or untick it.",
      "bad_context#no_melds": "{special} is a first-turn win, so the hand has no melds: dissolve them, or untick {special}.",
      "bad_context#no_kong": "{special} needs a kong among the melds: add it, or untick {special}.",
      "bad_context#required": "choose who discarded the winning tile.",
      "bad_context#own_seat": "that is your own seat: choose another player.",
      "bad_context#self_draw": "a self-draw has no discarder: choose Discard, or clear it.",
      "bad_context#robbed": "when a kong is robbed, the robbed player (the discarder) is the liable one.",
      "bad_context#no_replacement": "only for a kong-replacement win: tick it under Special wins, or clear this.",
      "bad_context#no_fed_kong": "no exposed kong was made from that player's discard: set the kong's “fed by”, or clear this.",
      "bad_meld#size": "a {kind} has {expected} tiles; this one has {given}.",
      "bad_meld#shape": "its tiles do not make a {kind}: a chow is three in a row of one suit, a pung three and a kong four of one tile.",
      "bad_meld#own_seat": "that is your own seat: choose who fed the kong.",
      "bad_meld#required": "this rule set makes the discarder pay for an exposed kong: choose who fed it.",
      "bad_meld#chow_from": "a chow is claimed only from the player before you ({seat}).",
      "not_allowed#chow": "this rule set plays no chows: make it a pung or a kong.",
      "not_allowed#discard": "this rule set allows self-drawn wins only: choose Self-draw.",
      "not_allowed#multi_win": "this rule set lets only the biggest hand win on a discard (截胡): untick {multi_win}.",
      "not_allowed@hand.flowers": "this rule set plays without flowers: take them out.",
      "not_allowed@context.horses": "this rule set plays without horses: leave this empty.",
      too_many_tiles: "the hand has {given} tiles; a winning hand has {expected} (a kong counts as 3). Take out the extra tiles, or put a kong's four in a meld.",
      too_few_tiles: "the hand has {given} tiles; a winning hand has {expected} (a kong counts as 3). Add the missing tiles with +.",
      too_many_copies: "more than four {tiles}: a set has four of each tile. Check those tiles (and the horses).",
      below_minimum_fan: "the hand is worth {given} fan; this rule set needs {expected} to win.",
      not_json: "The server, or a proxy in front of it, answered with an error (HTTP {status}), not the app's answer: try again in a minute.",
      unauthorized: "This server needs its access token: open the link with the token you were given.",
      cross_origin: "The request came from another site, so the server refused it: open the page from its own address.",
      unknown_host: "This server does not answer to this address: open it by the name it was given.",
    },
  },
  zh: {
    fields: {
      "hand.concealed": "{standing}", "hand.flowers": "{flowers}", "hand.winning_tile": "胡的牌",
      "hand.melds[]": "副露 {n}", "hand.melds[].kind": "副露 {n}", "hand.melds[].fed_by": "副露 {n} 的放杠",
      "context.win": "{win_type}", "context.seat_wind": "{seat}", "context.prevalent_wind": "{prevalent}",
      "context.discarder": "{discarder}", "context.special": "{special_wins}", "context.liable": "{liable}",
      "context.kong_fed_by": "{kong_fed_by}", "context.ghosts": "{ghosts}", "context.horses": "{horses}",
      "context.stake": "金额", "context.stake.unit": "{stake_unit}", "context.stake.fee": "{stake_fee}",
      "context.stake.flower": "{stake_flower}", "context.stake.kong": "{stake_kong}",
      "context.stake.chicken": "{stake_chicken}", "options.ghosts": "{ghost_mode}", ruleset: "{rules}",
      text: "输入的手牌",
    },
    errors: {
      "bad_tile#not_a_tile": "“{token}”（第 {at} 个字符）不是牌：先写数字，再写花色字母：m 万、p 筒、s 条、z 风和箭（1-7），例如 123m 55z。",
      "bad_tile#no_suit": "“{token}”（第 {at} 个字符）后面没有花色字母：加上 m、p、s 或 z，例如 {token}m。",
      "bad_tile#no_digits": "“{token}”（第 {at} 个字符）前面没有数字：先写数字，例如 123{token}。",
      "bad_tile#flower": "{token}（第 {at} 个字符）是花牌：请加在花牌里。",
      "bad_tile#not_a_flower": "这里只能放花牌（1f-8f）。",
      "bad_tile#not_text": "请把牌写成文字，例如 123m 55z。",
      "bad_meld#brackets": "“{token}”（第 {at} 个字符）没有配对：每组副露都要括好，明的 [555s]，暗杠 (1111p)。",
      "bad_context#finished": "听牌只算还在打的手牌：请清空这一项，或按“计番”算胡了的牌。",
      "bad_context@context.horses#count": "这手牌要抽 {expected} 匹马，你输入了 {given} 匹。",
      "bad_context@context.ghosts#count": "这种鬼牌玩法有 {expected} 张鬼牌，你输入了 {given} 张。",
      "bad_context@context.ghosts#white": "白板做鬼时鬼牌就是白板：留空或输入 5z。",
      "bad_context@context.ghosts#no_ghosts": "这套规则不用鬼牌：请留空，或选一种鬼牌玩法。",
      "bad_context#range": "请输入 0 到 {most} 之间的数，{given} 不行。",
      "bad_context#amount": "金额太大，无法精确计算：请调低金额。",
      "bad_context#needs_win": "{special}只能{win}：请在上面选{win}，或取消{special}。",
      "bad_context#heavenly": "{special}是庄家第一轮自摸：请选自摸、门风选东，或取消它。",
      "bad_context#earthly": "{special}是闲家第一轮自摸：请选自摸、门风选东以外的风，或取消它。",
      "bad_context#human": "{special}是胡庄家打出的第一张牌：请选点炮、放炮的人选东、自己坐别的位置，或取消它。",
      "bad_context#no_melds": "{special}是第一轮就胡，不会有副露：请拆开副露，或取消{special}。",
      "bad_context#no_kong": "{special}要有杠：请把杠加进副露，或取消{special}。",
      "bad_context#required": "请选出放炮的人。",
      "bad_context#own_seat": "这是你自己的位置：请选别的玩家。",
      "bad_context#self_draw": "自摸没有放炮的人：请选点炮，或清空这一项。",
      "bad_context#robbed": "抢杠时包牌的是被抢杠的人（放炮的人）。",
      "bad_context#no_replacement": "只用于杠上开花：请在特殊胡法里勾上它，或清空这一项。",
      "bad_context#no_fed_kong": "副露里没有这个人放的明杠：请设好杠的“放杠”，或清空这一项。",
      "bad_meld#size": "{kind}要 {expected} 张牌，这组有 {given} 张。",
      "bad_meld#shape": "这些牌不成{kind}：吃是同花色三张顺子，碰是三张、杠是四张同样的牌。",
      "bad_meld#own_seat": "这是你自己的位置：请选放杠的人。",
      "bad_meld#required": "这套规则的明杠由放杠的人付钱：请选出放杠的人。",
      "bad_meld#chow_from": "只能吃上家（{seat}）的牌。",
      "not_allowed#chow": "这套规则不能吃：请改成碰或杠。",
      "not_allowed#discard": "这套规则只能自摸：请选自摸。",
      "not_allowed#multi_win": "这套规则截胡，一张牌只有最大的一手能胡：请取消{multi_win}。",
      "not_allowed@hand.flowers": "这套规则不算花牌：请把花牌拿出去。",
      "not_allowed@context.horses": "这套规则不买马：请留空。",
      too_many_tiles: "手牌有 {given} 张，胡牌要 {expected} 张（杠算 3 张）：拿掉多的牌，或把杠的四张放进副露。",
      too_few_tiles: "手牌有 {given} 张，胡牌要 {expected} 张（杠算 3 张）：用 + 补上缺的牌。",
      too_many_copies: "{tiles}超过四张：每种牌只有四张。请检查这些牌（和马牌）。",
      below_minimum_fan: "这手牌 {given} 番，这套规则要 {expected} 番才能胡。",
      not_json: "服务器或它前面的代理返回了错误（HTTP {status}），不是本应用的回答：请一分钟后再试。",
      unauthorized: "这个服务器需要访问令牌：请用给你的带令牌的链接打开。",
      cross_origin: "请求来自别的网站，服务器拒绝了：请从它自己的地址打开页面。",
      unknown_host: "这个服务器不认这个地址：请用给你的名字打开。",
    },
  },
};

let nameTile = (code) => code;

/** How refusals name tiles (tiles.js gives the served vocabulary's names; i18n.js cannot import it). */
export function nameTilesWith(namer) {
  nameTile = namer;
}

const holes = (words) => [...words.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
const fill = (words, values) => words.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? phrase(name)));

/** The values a refusal's words may use: its detail, with names in the page's language. */
function refusalValues(item, status) {
  const detail = item.detail ?? {};
  const values = { ...detail, ...(status !== undefined && { status }) };
  if (typeof detail.position === "number") values.at = detail.position + 1;
  if (typeof detail.most === "number") values.most = detail.most.toLocaleString(language);
  const meld = /^hand\.melds\[(\d+)\]/.exec(detail.field ?? "");
  if (meld) values.n = Number(meld[1]) + 1;
  for (const key of ["special", "win", "kind"]) if (detail[key]) values[key] = phrase(detail[key]);
  if (detail.kind === "kong") values.kind = language === "zh" ? "杠" : "kong";
  if (detail.seat) values.seat = nameTile(detail.seat);
  if (Array.isArray(detail.tiles)) values.tiles = detail.tiles.map(nameTile).join(t("game_and"));
  return values;
}

/** One refusal in words: the field it names, then the most specific words its detail fills. */
function wordRefusal(item, status, about) {
  const values = refusalValues(item, status);
  const field = (item.detail?.field ?? "").replace(/\[\d+\]/g, "[]");
  const reason = item.detail?.reason;
  const own = WORDS[language].errors;
  const fits = (words) => Boolean(words) && holes(words).every((hole) => hole in values || hole in WORDS[language]);
  const detailed = [field && reason && `${item.code}@${field}#${reason}`, reason && `${item.code}#${reason}`,
    field && `${item.code}@${field}`, item.code].map((key) => key && REFUSALS[language].errors[key]).find(fits);
  const text = fill((!about || !own[`${about}_${item.code}`]) && detailed
    || (own[`${about}_${item.code}`] ?? own[item.code] ?? own.unknown), { code: item.code, ...values });
  const label = REFUSALS[language].fields[field];
  if (label) return `${fill(label, values)}${language === "zh" ? "：" : ": "}${text}`;
  return language === "zh" ? text : text[0].toUpperCase() + text.slice(1);
}

/** Plain words for an API refusal (an ApiError's `errors`, each with a `code` and maybe a `detail`) or a failed
 *  connection. `about` names what was asked for where a code needs it ("game": `not_found` is then the game). */
export function errorText(error, about = "") {
  const items = error.errors?.length ? error.errors : [{ code: error.code ?? "network" }];
  return [...new Set(items.map((item) => wordRefusal(item, error.status, about)))].join(" ");
}

/** Every element with data-i18n (text), data-i18n-aria (aria-label), data-i18n-alt or data-i18n-title. */
export function translatePage(root) {
  root.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-aria]")) element.setAttribute("aria-label", t(element.dataset.i18nAria));
  for (const element of root.querySelectorAll("[data-i18n-alt]")) element.alt = t(element.dataset.i18nAlt);
  root.title = t("title");
}

export const WORD_KEYS = Object.fromEntries(LANGUAGES.map((lang) => [lang, Object.keys(WORDS[lang])]));
/** Every phrase of a language, errors as "errors.code". */
export const phrases = (lang) => Object.fromEntries(Object.entries(WORDS[lang]).flatMap(([key, value]) =>
  (typeof value === "string" ? [[key, value]] : Object.entries(value).map(([code, text]) => [`errors.${code}`, text]))));
export const ERROR_CODES = Object.fromEntries(LANGUAGES.map((lang) =>
  [lang, [...Object.keys(WORDS[lang].errors), ...Object.keys(REFUSALS[lang].errors)]]));
/** The request fields a refusal may name, with their labels. */
export const REFUSAL_FIELDS = Object.fromEntries(LANGUAGES.map((lang) => [lang, Object.keys(REFUSALS[lang].fields)]));
