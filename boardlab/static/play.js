// boardlab play: draws the table the server describes and sends the index of the move the clicks spell.
// No rule of any game is written here: the server lists the legal moves with their click paths.
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
let setup = null, game = null, clicks = [], busy = false, timer = null;
// the game this page asked for last: a reply that comes after "New game" was asked for again is for an
// old game and is dropped (else the page flips back to it, and two games step in turn)
let generation = 0;
// this page's token for the game (the host's or a seat's: see play_server.py); the hash holds "ID:TOKEN"
let token = "";
// the seat whose hand this screen last showed (hot seat: a new one is shown after a "pass to" screen)
let shownSeat = null;
let offline = false;
// a record being played back (its id on the server, the move shown, its moves); null while playing
let replay = null, playing = null;
const POLL_MS = 1500;

const $ = (id) => document.getElementById(id);

class Offline extends Error {}

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (token) options.headers["X-Boardlab-Token"] = token;
  if (body !== undefined) { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(body); }
  let response, data;
  try {
    response = await fetch(path, options);
    data = await response.json();
  } catch (err) {
    setOffline(true);
    throw new Offline("The server is not answering (stopped, restarting, or the network is down): trying again every few seconds.");
  }
  setOffline(false);
  if (!response.ok) { const e = new Error(data.error || ("status " + response.status)); e.status = response.status; throw e; }
  return data;
}

// the agents' compiled code is made when the server starts (once after an install: up to a minute)
function showWarm(state) {
  const note = $("warm");
  note.hidden = state.ready;
  document.body.dataset.warm = state.ready ? "ready" : "warming";
  if (state.ready) return;
  note.textContent = `Getting the agents ready (${state.agents.join(", ")}): compiling their fast code, once after an install, `
    + `up to a minute (${Math.round(state.seconds)} s so far). Agent moves wait for it.`;
  setTimeout(async () => { try { showWarm(await api("GET", "/api/warm")); } catch (err) { showWarm(state); } }, 1000);
}

function setOffline(value) {
  if (offline === value) return;
  offline = value;
  document.body.dataset.offline = value ? "1" : "0";
  const note = $("offline");
  note.hidden = !value;
  if (!value && game) refresh();
}

function candidates() {
  if (!game) return [];
  return game.moves.filter((m) => clicks.every((k, i) => m.targets[i] === k));
}

function nextKeys() {
  const out = new Set();
  for (const m of candidates()) if (m.targets.length > clicks.length) out.add(m.targets[clicks.length]);
  return out;
}

function el(name, attributes) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attributes)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  return node;
}

function shapeOf(item) {
  if (item.art !== undefined) return ["rect", {x: item.x, y: item.y, width: item.w, height: item.h}];
  if (item.box !== undefined) return ["rect", {x: item.box[0], y: item.box[1], width: item.box[2], height: item.box[3], rx: item.radius || null}];
  if (item.disc !== undefined) return ["circle", {cx: item.disc[0], cy: item.disc[1], r: item.disc[2]}];
  return null;
}

function drawTable() {
  const view = game.view;
  const svg = el("svg", {viewBox: `0 0 ${view.width} ${view.height}`, id: "board"});
  const next = nextKeys();
  const overlays = [];
  for (const item of view.items) {
    let node = null;
    if (item.art !== undefined) {
      node = el("image", {href: `/art/${item.art}.svg`, x: item.x, y: item.y, width: item.w, height: item.h,
                          preserveAspectRatio: "none"});
      if (item.rotate) node.setAttribute("transform", `rotate(${item.rotate} ${item.x + item.w / 2} ${item.y + item.h / 2})`);
    } else if (item.box !== undefined) {
      node = el("rect", {x: item.box[0], y: item.box[1], width: item.box[2], height: item.box[3], rx: item.radius || null,
                         fill: item.fill || "none", stroke: item.stroke || null, "stroke-width": item.stroke ? 0.6 : null});
    } else if (item.disc !== undefined) {
      node = el("circle", {cx: item.disc[0], cy: item.disc[1], r: item.disc[2], fill: item.fill || "none",
                           stroke: item.stroke || null, "stroke-width": item.stroke ? 0.6 : null});
    } else if (item.label !== undefined) {
      node = el("text", {x: item.x, y: item.y, "font-size": item.size, fill: item.fill, "text-anchor": item.anchor,
                         "font-weight": item.bold ? "bold" : null, "font-family": "sans-serif"});
      node.textContent = item.label;
    }
    if (node) {
      if (item.title) { const t = el("title", {}); t.textContent = item.title; node.appendChild(t); }
      svg.appendChild(node);
    }
    if (item.key !== undefined) overlays.push(item);
  }
  for (const item of overlays) {  // the hit areas, above everything drawn
    const [name, attributes] = shapeOf(item);
    const node = el(name, attributes);
    let cls = "hit";
    if (next.has(item.key)) cls += " legal";
    if (clicks.includes(item.key)) cls += " chosen";
    if (game.last && game.last.keys.includes(item.key)) cls += " last";
    node.setAttribute("class", cls);
    node.dataset.key = item.key;
    // every piece, card and place is a button for the keyboard: Tab to it, Enter or Space clicks
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", (item.title || item.key) + (next.has(item.key) ? " (can be played)" : "")
      + (clicks.includes(item.key) ? " (chosen)" : "") + (cls.includes(" last") ? " (last move)" : ""));
    if (item.title) { const t = el("title", {}); t.textContent = item.title; node.appendChild(t); }
    node.addEventListener("click", () => clicked(item.key));
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clicked(item.key); }
    });
    svg.appendChild(node);
  }
  // the board is redrawn after every move: keep the keyboard's place on it
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : undefined;
  const hadFocus = focused !== undefined && $("table").contains(document.activeElement);
  $("table").replaceChildren(svg);
  readableLabels(svg, view);
  if (hadFocus || keyboardTurn) {
    const keep = [...svg.querySelectorAll(".hit.legal:not(.chosen)")].find((n) => n.dataset.key === focused)
      || svg.querySelector(".hit.legal:not(.chosen)") || [...svg.querySelectorAll(".hit")].find((n) => n.dataset.key === focused)
      || svg.querySelector(".hit");
    if (keep) keep.focus();
  }
}

// the table is drawn in millimetres and scaled to the screen: on a phone its labels would be a few
// pixels high, so each is drawn at least MIN_LABEL_PX high (it may then reach over its neighbours)
const MIN_LABEL_PX = 11;
function readableLabels(svg, view) {
  const scale = svg.getBoundingClientRect().width / view.width;
  if (!scale) return;
  for (const text of svg.querySelectorAll("text")) {
    const size = Number(text.getAttribute("font-size"));
    if (size * scale < MIN_LABEL_PX) text.setAttribute("font-size", MIN_LABEL_PX / scale);
  }
}
window.addEventListener("resize", () => { if (game) drawTable(); });

// set once a key was used on the board: from then on the focus follows the game onto the board
let keyboardTurn = false;
document.addEventListener("keydown", (e) => { if (e.key === "Tab" || e.key === "Enter" || e.key === " ") keyboardTurn = true; });
document.addEventListener("mousedown", () => { keyboardTurn = false; });

function seatLabel(s) {
  const seat = game.seats[s];
  return seat.agent === "person" ? `${seat.name}` : `${seat.name} (${seat.agent})`;
}

function drawPanel() {
  const status = $("status");
  status.className = "";
  status.textContent = "";
  if (game.over) {
    const r = game.result;
    status.className = "over";
    let text = "Game over: ";
    if (r.unfinished) text += `stopped unfinished after ${r.length} (the turn cap).`;
    else if (!r.winners.length) text += "no winner.";
    else text += r.winners.map((s) => game.seats[s].name).join(" and ") + (r.winners.length > 1 ? " share the win." : " wins.");
    if (r.scores) text += " Scores: " + r.scores.map((v, s) => `${game.seats[s].name} ${v}`).join(", ") + ".";
    status.textContent = text;
  } else if (game.mover >= 0) {
    const person = game.seats[game.mover].agent === "person";
    const last = [...game.history].reverse().find((h) => h.seat !== undefined);
    if (last) status.append(`${game.seats[last.seat].name} played ${last.text}. `);
    status.append(`${seatLabel(game.mover)} to move` + (!person ? "…" : game.moves.length
      ? ": click a highlighted piece or place (or Tab to it and press Enter)." : " on their own page…"));
  }
  document.body.dataset.ply = game.ply;
  document.body.dataset.over = game.over ? "1" : "0";
  document.body.dataset.waiting = (!game.over && game.moves.length) ? "person" : "agent";
  $("notes").textContent = game.view.notes.join("\n");
  const list = $("moves");
  list.replaceChildren();
  for (const entry of game.history) {
    const li = document.createElement("li");
    li.textContent = (entry.seat !== undefined ? game.seats[entry.seat].name + ": " : "") + entry.text;
    if (entry.quiet) li.className = "quiet";  // a turn without a move (Links: the seat only drew)
    else li.dataset.text = entry.text;
    if (entry.seconds !== undefined) {
      const secs = document.createElement("span");
      secs.className = "secs";
      secs.textContent = ` (${entry.seconds.toFixed(3)} s)`;
      li.appendChild(secs);
    }
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  const legal = $("legal");
  legal.replaceChildren();
  for (const m of game.moves) {
    const b = document.createElement("button");
    b.textContent = m.text;
    b.dataset.index = m.index;
    b.addEventListener("click", () => play(m.index));
    legal.appendChild(b);
  }
  const choices = $("choices");
  choices.replaceChildren();
  const complete = candidates().filter((m) => m.targets.length === clicks.length);
  if (clicks.length && complete.length) {
    const note = document.createElement("div");
    note.textContent = complete.length > 1 || nextKeys().size ? "Which move?" : "";
    choices.appendChild(note);
    for (const m of complete) {
      const b = document.createElement("button");
      b.textContent = m.text;
      b.className = "choice";
      b.addEventListener("click", () => play(m.index));
      choices.appendChild(b);
    }
    if (keyboardTurn && !nextKeys().size) choices.querySelector("button").focus();
  }
  $("save").href = `/api/games/${game.id}/record?token=${encodeURIComponent(token)}`;
  $("save").hidden = (game.role !== "host" && !game.over) || replay !== null;
  $("file").hidden = !(game.over && game.role === "host" && replay === null);
  $("replaybar").hidden = replay === null;
  if (replay) $("rp-where").textContent = `move ${replay.move} of ${replay.moves}`;
  $("undo").disabled = replay !== null || game.role !== "host" || !game.history.some((e) => e.seat !== undefined);
  $("step").disabled = replay !== null || game.over || game.mover < 0 || game.seats[game.mover].agent === "person";
}

function render() {
  drawTable();
  drawPanel();
  drawLobby();
  drawHandOver();
  drawHint();
}

// -- the AI's view (play_server.py Hints): each legal move's win chance and visits, after a game the
// moves that lost most against the AI's choice; its texts come in the page's language (setup.terms)
let hintOn = false, hintFor = null;
function say(key, fields = {}) {
  return setup.terms[key].replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? fields[name] : whole));
}
function percent(x) {
  return new Intl.NumberFormat(setup.lang, {style: "percent", maximumFractionDigits: 0}).format(x);
}
function count(n) { return new Intl.NumberFormat(setup.lang).format(n); }
function decimal(x) { return new Intl.NumberFormat(setup.lang, {maximumFractionDigits: 1}).format(x); }

function hintAgentLine(data) {
  const source = say(`play.hint.source.${data.source}`, {budget: count(data.budget)});
  return say("play.hint.agent", {agent: data.agent, source}) + (data.margin ? " " + say("play.hint.margin") : "");
}

function drawHint() {
  const box = $("hint"), toggle = $("hint-toggle");
  toggle.textContent = say(hintOn ? "play.hint.hide" : "play.hint.toggle");
  toggle.setAttribute("aria-pressed", hintOn ? "true" : "false");
  toggle.hidden = replay !== null;
  // hot seat with hidden hands: the moves of the hand are not shown while the screen is handed over
  box.hidden = !hintOn || replay !== null || document.body.dataset.handover === "1";
  if (box.hidden) return;
  $("hint-title").textContent = game.over ? say("play.hint.review") : say("play.hint.title");
  if (!game.over && !game.moves.length) {
    hintFor = null;
    $("hint-agent").textContent = hintAgentLine(setup.hint);
    $("hint-status").textContent = say("play.hint.none");
    $("hint-table").hidden = true;
    $("review").hidden = true;
    return;
  }
  loadHint();
}

async function loadHint() {
  const key = `${game.id}:${game.ply}:${game.over}`;
  if (hintFor === key) return;  // shown, or on its way
  hintFor = key;
  $("hint-table").hidden = true;
  $("review").hidden = true;
  $("hint-agent").textContent = hintAgentLine(setup.hint);
  $("hint-status").textContent = game.over ? say("play.hint.reviewing", {seconds: count(setup.hint.review_seconds)})
    : say("play.hint.thinking", {seconds: count(setup.hint.seconds)});
  document.body.dataset.hint = "thinking";
  let data;
  try { data = await api("GET", `/api/games/${game.id}/${game.over ? "review" : "hint"}`); }
  catch (err) {
    if (hintFor !== key) return;
    hintFor = null;  // asked again at the next drawing
    document.body.dataset.hint = "failed";
    $("hint-status").textContent = err.status === 503 ? say("play.hint.busy") : err.message;
    return;
  }
  if (hintFor !== key || !hintOn) return;
  if (game.over) showReview(data); else showRating(data);
  document.body.dataset.hint = "shown";
}

function showRating(data) {
  $("hint-agent").textContent = hintAgentLine(data);
  const visits = {visits: count(data.visits), budget: count(data.budget), seconds: decimal(data.seconds)};
  $("hint-status").textContent = say(data.complete ? "play.hint.visits" : "play.hint.cut", visits);
  $("hint-caption").textContent = say("play.hint.title") + ": " + say(data.complete ? "play.hint.visits" : "play.hint.cut", visits);
  $("hint-move").textContent = say("play.hint.move");
  $("hint-win").textContent = say("play.hint.win");
  $("hint-share").textContent = say("play.hint.share");
  $("hint-win").className = "num";
  $("hint-share").className = "num";
  const body = $("hint-table").querySelector("tbody");
  body.replaceChildren();
  const rows = [...data.moves].sort((a, b) => b.visits - a.visits || (b.win ?? -1) - (a.win ?? -1) || a.index - b.index);
  for (const m of rows) {
    const tr = document.createElement("tr");
    tr.dataset.index = m.index;
    tr.dataset.visits = m.visits;
    if (m.index === data.best) tr.className = "best";
    const name = document.createElement("td");
    name.textContent = m.text + (m.index === data.best ? ` (${say("play.hint.choice")})` : "");
    const win = document.createElement("td");
    win.className = "num";
    win.textContent = m.win === null ? say("play.hint.untried") : percent(m.win);
    const share = document.createElement("td");
    share.className = "num";
    share.textContent = `${count(m.visits)} (${percent(m.share)})`;
    tr.append(name, win, share);
    body.appendChild(tr);
  }
  $("hint-table").hidden = false;
}

function showReview(data) {
  $("hint-agent").textContent = hintAgentLine(data);
  $("hint-status").textContent = say("play.hint.reviewed", {rated: count(data.rated), total: count(data.total), agent: data.agent})
    + (data.moves.length || data.untried.length ? "" : " " + say("play.hint.no_loss"));
  const list = $("review");
  list.replaceChildren();
  const seat = (s) => game.seats[s].name;
  const number = (ply) => game.history.findIndex((h) => h.entry === ply) + 1;  // its place in the move list
  for (const m of data.moves) {
    const li = document.createElement("li");
    li.dataset.ply = m.ply;
    li.textContent = say("play.hint.loss", {ply: count(number(m.ply)), seat: seat(m.seat), played: m.played_text,
      played_win: percent(m.played_win), best: m.best_text, best_win: percent(m.best_win), loss: count(Math.round(m.loss * 100))});
    list.appendChild(li);
  }
  for (const m of data.untried) {
    const li = document.createElement("li");
    li.dataset.ply = m.ply;
    li.textContent = say("play.hint.untried_move", {ply: count(number(m.ply)), seat: seat(m.seat), played: m.played_text, best: m.best_text});
    list.appendChild(li);
  }
  list.hidden = !list.children.length;
}

function localSeats() {
  return game.seats.map((s, i) => i).filter((i) => game.seats[i].agent === "person" && !game.seats[i].remote);
}

// hot seat with hidden hands: the screen hides the table until the next player says they sit there
function drawHandOver() {
  const cover = $("handover");
  const seat = game.viewer;
  const needed = game.role === "host" && game.hides && !game.over && seat !== null && seat < game.seats.length
    && localSeats().length > 1 && seat !== shownSeat;
  cover.hidden = !needed;
  $("table").style.visibility = needed ? "hidden" : "visible";
  document.body.dataset.handover = needed ? "1" : "0";
  if (needed) {
    $("handover-text").textContent = `Pass the screen to ${game.seats[seat].name}: the others look away.`;
    $("handover-go").textContent = `I am ${game.seats[seat].name}: show my hand`;
  } else if (seat !== null) shownSeat = seat;
}

function joinLink(t) {
  return `${location.origin}${location.pathname}#${game.id}:${t}`;
}

// who plays each seat, and for the host the join link of each seat played by hand
function drawLobby() {
  const box = $("lobby");
  box.replaceChildren();
  const head = document.createElement("b");
  head.textContent = game.role === "seat" ? `You play ${game.seats[game.seat].name}` : "Seats";
  box.appendChild(head);
  const list = document.createElement("ul");
  game.seats.forEach((seat, s) => {
    const li = document.createElement("li");
    li.dataset.seat = s;
    let text = seat.name + ": ";
    if (seat.agent !== "person") text += seat.agent;
    else if (game.role === "seat" && s === game.seat) text += "you";
    else if (!seat.remote) text += game.role === "host" ? "here (hot seat), or send the link" : "at the host's screen";
    else text += seat.connected ? "joined, connected" : "joined, not connected now";
    li.append(text);
    li.className = seat.remote ? (seat.connected ? "connected" : "away") : "";
    if (game.role === "host" && seat.token && !game.over) {
      const link = document.createElement("input");
      link.readOnly = true; link.className = "join"; link.value = joinLink(seat.token);
      link.setAttribute("aria-label", `join link for ${seat.name}`);
      link.addEventListener("focus", () => link.select());
      const copy = document.createElement("button");
      copy.textContent = "Copy";
      copy.addEventListener("click", () => { link.select(); navigator.clipboard?.writeText(link.value).catch(() => {}); });
      li.append(" ", link, copy);
    }
    list.appendChild(li);
  });
  box.appendChild(list);
}

// -- playtests: file a finished game; play a saved record back move by move (play_server.py) --
async function fileGame() {
  if (busy || !game || !game.over) return;
  setBusy(true);
  try {
    const done = await api("POST", `/api/games/${game.id}/file`, {});
    $("filed").textContent = done.filed ? `Filed as playtest ${done.id}.` : `Already filed (playtest ${done.id}).`;
  } catch (err) { failed(err); } finally { setBusy(false); }
}

async function showMove(move) {
  if (!replay) return;
  try {
    const data = await api("GET", `/api/replays/${replay.id}?move=${move}`);
    replay.move = data.replay.move;
    data.seats.forEach((seat, s) => { seat.agent = data.replay.seats[s]; });
    game = data;
    clicks = [];
    render();
  } catch (err) { failed(err); }
}

async function loadRecord(file) {
  if (!file) return;
  let record;
  try { record = JSON.parse(await file.text()); } catch (err) { $("error").textContent = `${file.name}: not a record (not JSON)`; return; }
  try {
    const made = await api("POST", "/api/replays", {record});
    if (!replay) playing = game;
    if (timer) clearTimeout(timer);
    replay = {id: made.id, move: 0, moves: made.moves};
    $("error").textContent = "";
    await showMove(0);
  } catch (err) { failed(err); }
  $("recordfile").value = "";
}

function leaveReplay() {
  replay = null;
  if (playing) { game = playing; playing = null; render(); refresh(); schedule(); }
}

function show(data) {
  if (replay) { replay = null; playing = null; }
  game = data;
  clicks = [];
  $("error").textContent = "";
  if (game.token) token = game.token;
  history.replaceState(null, "", "#" + game.id + ":" + token);
  render();
  schedule();
}

// another page (a remote seat, an agent stepped elsewhere) may have moved: ask now and then
async function refresh() {
  if (busy || !game || replay) return;
  let data;
  const mine = generation;
  try { data = await api("GET", `/api/games/${game.id}`); } catch (err) { if (!(err instanceof Offline)) failed(err); return; }
  if (busy || mine !== generation) return;
  if (data.ply !== game.ply || data.over !== game.over) show(data);
  else { game.seats = data.seats; drawLobby(); }
}

function failed(err) {
  if (err instanceof Offline) return;  // said by the offline note, which goes when the server answers
  if (err.status === 409 && /position has changed/.test(err.message)) { refresh(); return; }  // another page moved first
  $("error").textContent = err.message;
}

function clicked(key) {
  if (busy || !game || !game.moves.length) return;
  if (clicks.length && clicks[clicks.length - 1] === key) { clicks.pop(); render(); return; }
  if (!nextKeys().has(key)) return;  // not the start or the next step of a legal move: nothing happens
  clicks.push(key);
  const left = candidates();
  const complete = left.filter((m) => m.targets.length === clicks.length);
  if (complete.length === 1 && left.length === 1) { play(complete[0].index); return; }
  render();
}

function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "1" : "0";
}

// show a reply only if no new game was asked for since the request `mine` went out
function showIf(mine, data) {
  if (mine === generation) show(data);
}

async function play(index) {
  if (busy) return;
  setBusy(true);
  const mine = generation;
  try { showIf(mine, await api("POST", `/api/games/${game.id}/move`, {ply: game.ply, index})); }
  catch (err) { failed(err); }
  finally { setBusy(false); }
}

function schedule() {
  if (replay) return;
  if (timer) { clearTimeout(timer); timer = null; }
  if (!game || game.over || game.mover < 0 || game.seats[game.mover].agent === "person") return;
  if (!$("auto").checked) return;
  timer = setTimeout(step, Math.max(0, Number($("delay").value) || 0));
}

async function step() {
  if (!game || game.over) return;
  // a request in flight (a move, a new game, a refresh's show): look again after it, never drop the step,
  // else an agents' game stops until something else moves it (the poll only redraws a game that changed)
  if (busy) { timer = setTimeout(schedule, 100); return; }
  setBusy(true);
  const mine = generation;
  try { showIf(mine, await api("POST", `/api/games/${game.id}/step`, {ply: game.ply})); }
  catch (err) { failed(err); }
  finally { setBusy(false); }
}

function seatInputs() {
  const box = $("seatsetup");
  const players = Number($("players").value);
  // what is typed stays typed when the player count changes (else the game's seats, else the defaults)
  const typed = [...box.querySelectorAll("input.seat")].map((i) => i.value.trim());
  const previous = typed.length ? typed : game ? game.seats.map((s) => s.agent) : setup.seats;
  box.replaceChildren();
  for (let s = 0; s < players; s++) {
    const input = document.createElement("input");
    input.setAttribute("list", "agentlist");
    input.className = "seat";
    input.size = 9;
    input.value = previous[s] || previous[previous.length - 1];
    input.title = `seat ${s + 1}: ${setup.agents.join(", ")}` +
      (setup.agent_families.length ? ` or ${setup.agent_families.join(", ")}` : "");
    box.appendChild(document.createTextNode(` ${s + 1}:`));
    box.appendChild(input);
  }
}

async function newGame() {
  if (timer) clearTimeout(timer);
  const seats = [...document.querySelectorAll("input.seat")].map((i) => i.value.trim());
  timer = null;
  const mine = ++generation;  // a reply to anything asked before this is dropped
  setBusy(true);
  token = "";
  shownSeat = null;
  try {
    showIf(mine, await api("POST", "/api/games", {seed: Number($("seed").value), players: Number($("players").value), seats}));
  } catch (err) { failed(err); }
  finally { setBusy(false); }
}

async function start() {
  // the page's language: ?lang=es in its address, else the browser's (the server falls back to English)
  const asked = new URLSearchParams(location.search).get("lang") || (navigator.language || "en").slice(0, 2);
  setup = await api("GET", `/api/setup?lang=${encodeURIComponent(asked)}`);
  $("hintbox").lang = setup.lang;  // the hint speaks the page's language (the rest of the page is English)
  $("hint-toggle").addEventListener("click", () => { hintOn = !hintOn; hintFor = null; if (game) drawHint(); });
  $("title").textContent = `${setup.name} (${setup.variant})`;
  document.title = `boardlab play: ${setup.name}`;
  const list = document.createElement("datalist");
  list.id = "agentlist";
  for (const name of setup.agents) {
    const o = document.createElement("option");
    o.value = name;
    list.appendChild(o);
  }
  document.body.appendChild(list);
  const players = document.createElement("input");
  players.type = "number"; players.id = "players"; players.min = setup.min_players; players.max = setup.max_players;
  players.value = setup.players; players.style.width = "3em";
  const label = document.createElement("label");
  label.append("players ", players);
  $("seatsetup").before(label);
  players.addEventListener("change", seatInputs);
  $("seed").value = setup.seed;
  seatInputs();
  $("new").addEventListener("click", newGame);
  $("deal").addEventListener("click", () => { $("seed").value = Math.floor(Math.random() * 2 ** 31); newGame(); });
  $("undo").addEventListener("click", async () => {
    if (busy) return;
    setBusy(true);
    const mine = generation;
    try { showIf(mine, await api("POST", `/api/games/${game.id}/undo`, {})); } catch (err) { failed(err); } finally { setBusy(false); }
  });
  $("step").addEventListener("click", step);
  $("file").addEventListener("click", fileGame);
  $("recordfile").addEventListener("change", (e) => loadRecord(e.target.files[0]));
  $("rp-first").addEventListener("click", () => showMove(0));
  $("rp-back").addEventListener("click", () => showMove(Math.max(0, replay.move - 1)));
  $("rp-next").addEventListener("click", () => showMove(Math.min(replay.moves, replay.move + 1)));
  $("rp-last").addEventListener("click", () => showMove(replay.moves));
  $("rp-leave").addEventListener("click", leaveReplay);
  $("auto").addEventListener("change", schedule);
  $("handover-go").addEventListener("click", () => { shownSeat = game.viewer; render(); });
  setInterval(refresh, POLL_MS);
  showWarm(setup.warm);
  const [id, given] = location.hash.slice(1).split(":");
  if (id) {
    token = given || "";
    try { show(await api("GET", `/api/games/${id}`)); seatInputs(); return; }
    catch (err) {
      if (err instanceof Offline) { $("error").textContent = ""; return; }
      $("error").textContent = err.status === 404
        ? `Game ${id} is not on this server any more (the server forgot it): a new game has started.`
        : err.message;
      if (err.status === 403) return;
    }
  }
  await newGame();
}

start().catch(failed);
