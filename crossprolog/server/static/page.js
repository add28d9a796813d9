// The page of `crossprolog serve`: every answer comes from the JSON API (docs/web.md).
"use strict";

const $ = (id) => document.getElementById(id);
const DRAW_DELAY = 250;  // milliseconds after the last keystroke before the puzzle is drawn again
const MOST_STEPS = 1000;  // hints applied one after another, at most

let families = [];  // what /api/families tells of each family
let drawRequests = 0;  // the number of the latest drawing asked for: older answers are dropped
let drawTimer = null;
let hinted = null;  // the text with the last hint applied, until it is applied or the text changes
// An answer or a generated puzzle is for the fields it was asked with: one that comes
// after the text (or the family, or the encoding) changed is not put in its place.
const OUTDATED = "the text changed while this was worked out: ask again";
let stopping = false;

// What the server says to a POST of `fields` (or to a GET, without them): the HTTP
// status and the JSON body, or an error of our own when the server cannot be reached.
async function api(path, fields) {
  // The page asks for the pictures ("drawings") beside each record; scripts need not.
  const init = fields === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({...fields, drawings: true})};
  try {
    const response = await fetch(path, init);
    try {
      return {code: response.status, data: await response.json()};
    } catch {
      return {code: response.status, data: {status: "error", error: `${response.status} ${response.statusText}`}};
    }
  } catch (error) {
    return {code: 0, data: {status: "error", error: `the server cannot be reached (${error.message})`}};
  }
}

// The one place a drawing the server made is put on the page.  A drawing is
// {"kind": "text", "text": ...} (the drawing the command line prints, marks in
// brackets), or {"kind": "svg", "svg": ...}, a picture made by the server.
function showDrawing(container, drawing) {
  const figure = document.createElement("figure");
  figure.className = "drawing";
  figure.dataset.text = drawing.text;  // the text drawing: copied, read aloud, tested
  if (drawing.kind === "svg") {
    const picture = new DOMParser().parseFromString(drawing.svg, "image/svg+xml").documentElement;
    picture.setAttribute("role", "img");
    picture.setAttribute("aria-label", drawing.text);
    figure.append(document.importNode(picture, true));
  } else {
    const pre = document.createElement("pre");
    pre.textContent = drawing.text;
    figure.append(pre);
  }
  container.append(figure);
}

function showDrawings(container, drawings) {
  container.replaceChildren();
  for (const drawing of drawings || []) showDrawing(container, drawing);
}

function puzzleFields() {
  const fields = {text: $("text").value};
  if ($("family").value) fields.family = $("family").value;
  if ($("encoding").value) fields.encoding = $("encoding").value;
  return fields;
}

function titleOf(name) {
  const found = families.find((family) => family.name === name);
  return found ? found.title : name;
}

// The line numbers beside the text, the line of an error (`bad`) marked.
function numberLines(bad) {
  const gutter = $("gutter");
  const count = $("text").value.split("\n").length;
  gutter.replaceChildren();
  for (let line = 1; line <= count; line++) {
    if (line === bad) {
      const marked = document.createElement("span");
      marked.className = "bad";
      marked.textContent = String(line);
      gutter.append(marked);
    } else {
      gutter.append(String(line));
    }
    gutter.append("\n");
  }
  fitGutter();
}

// The gutter scrolls as far as the text: a horizontal scrollbar (a line wider than the
// box) shortens the text's view, and the gutter's by as much, or the numbers drift.
function fitGutter() {
  const text = $("text");
  $("gutter").style.bottom = `${text.offsetHeight - text.clientHeight}px`;
  $("gutter").scrollTop = text.scrollTop;
}

function showError(data) {
  $("error").hidden = false;
  $("error").textContent = data.error;
  numberLines(data.line);
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
  numberLines(null);
}

// The puzzle drawn again from the text; a located error shows at its line instead.
async function redraw() {
  const number = ++drawRequests;
  if (!$("text").value.trim()) {
    clearError();
    $("drawing").replaceChildren();
    $("detected").textContent = "";
    return;
  }
  const {code, data} = await api("/api/draw", puzzleFields());
  if (number !== drawRequests) return;
  if (code === 200) {
    clearError();
    delete $("drawing").dataset.outdated;
    showDrawings($("drawing"), data.drawings);
    $("detected").textContent = `(${titleOf(data.family)})`;
    offerEncodings(data.family);
  } else {
    showError(data);
    $("detected").textContent = "";
    $("drawing").dataset.outdated = "true";  // the last drawing that could be made, dimmed
  }
}

function sameFields(asked, now) {
  return JSON.stringify(asked) === JSON.stringify(now);
}

// The text changed: the answer shown is about an earlier text (applying a hint keeps its
// reason shown: it is why the text is what it is now).
function textChanged(byHint = false) {
  hinted = null;
  $("apply").disabled = true;
  if (!byHint && $("result").dataset.status) $("result").dataset.outdated = "true";
  numberLines(null);
  clearTimeout(drawTimer);
  drawTimer = setTimeout(redraw, DRAW_DELAY);
}

function setText(text, byHint = false) {
  $("text").value = text;
  textChanged(byHint);
  clearTimeout(drawTimer);
  return redraw();
}

// The encodings of the family chosen, or else of the family the text was read as.
function offerEncodings(detected) {
  const name = $("family").value || detected;
  const family = families.find((f) => f.name === name);
  const select = $("encoding");
  const chosen = select.value;
  select.replaceChildren(new Option("the family's default", ""));
  for (const encoding of family ? family.encodings : []) select.append(new Option(encoding, encoding));
  select.value = family && family.encodings.includes(chosen) ? chosen : "";
}

function firstLine(text) {
  return (text || "").split("\n")[0];
}

// One line saying what an answer is.
function summary(command, code, data) {
  if (code !== 200 || data.status === "error") return firstLine(data.error);
  if (command === "hint" && data.status === "hint") return data.cells.map((cell) => cell.reason).join("; ");
  if (command === "solve" && data.solution && data.status !== "timeout") return "solved";
  if (command === "solve" && data.solution) return "time limit reached: the best answer found so far";
  if (command === "check" && data.status === "several") {
    const lines = data.output.split("\n");
    return `${lines[0].replace(/ \(in brackets\):$/, "")}; ${lines[lines.length - 1]}`;
  }
  return firstLine(data.output);
}

function showAnswer(command, code, data) {
  const status = code === 200 ? data.status : "error";
  delete $("result").dataset.outdated;
  $("result").dataset.status = status;
  $("result").dataset.command = command;
  const said = summary(command, code, data);
  $("result-status").textContent = said;
  const drawings = code === 200 ? data.drawings : [];
  const output = drawings && drawings.length ? "" : (data.output || data.error || "");
  $("result-output").textContent = output === said ? "" : output;
  showDrawings($("result-drawings"), drawings);
  if (code === 400 && data.line) showError(data);
}

function working(on) {
  $("busy").hidden = !on;
  for (const id of ["solve", "check", "hint", "steps", "count", "generate"]) $(id).disabled = on;
}

// The answer to `command` about the puzzle as it is now, shown; {outdated: true} instead
// when the text changed before it came (the text is never replaced by an old hint).
async function ask(command) {
  const asked = puzzleFields();
  const minimal = command === "check" && $("minimal").checked;
  working(true);
  const {code, data} = await api(`/api/${command}`, minimal ? {...asked, minimal} : asked);
  working(false);
  if (!sameFields(asked, puzzleFields())) {
    showAnswer(command, 200, {status: "outdated", output: OUTDATED});
    return {outdated: true};
  }
  showAnswer(command, code, data);
  if (command === "hint") {
    hinted = code === 200 && data.status === "hint" ? data.output : null;
    $("apply").disabled = hinted === null;
  }
  return {code, data};
}

async function applyHint() {
  if (hinted !== null) await setText(hinted, true);
}

// Hint after hint, each applied to the text, until nothing is left open (or no cell is
// forced, or an error, or Stop).
async function hintToTheEnd() {
  stopping = false;
  $("stop").hidden = false;
  for (let step = 0; step < MOST_STEPS && !stopping; step++) {
    const {code, data, outdated} = await ask("hint");
    if (outdated || code !== 200 || data.status !== "hint") break;
    await applyHint();
  }
  stopping = false;
  $("stop").hidden = true;
}

async function generate(event) {
  event.preventDefault();
  const fields = {family: $("generate-family").value, rows: Number($("rows").value),
                  cols: Number($("cols").value), well_formed: $("well-formed").checked};
  if ($("seed").value !== "") fields.seed = Number($("seed").value);
  const text = $("text").value;
  working(true);
  const {code, data} = await api("/api/generate", fields);
  working(false);
  if ($("text").value !== text) {  // typed meanwhile: what was typed stays
    showAnswer("generate", 200, {status: "outdated", output: OUTDATED});
  } else if (code === 200) {
    $("family").value = "";
    await setText(data.puzzle);
    delete $("result").dataset.outdated;
    $("result").dataset.status = "generated";
    $("result-status").textContent =
      `a ${fields.well_formed ? "well-formed " : ""}${titleOf(data.family)} puzzle: ` +
      `${data.givens} givens, ${data.constraints} other clues`;
    $("result-output").textContent = "";
    $("result-drawings").replaceChildren();
  } else {
    showAnswer("generate", code, data);
  }
}

function offerSizes() {
  const family = families.find((f) => f.name === $("generate-family").value);
  if (family && family.sizes.length) [$("rows").value, $("cols").value] = family.sizes[0];
}

async function start() {
  const {code, data} = await api("/api/families");
  if (code === 200) families = data.families;
  for (const family of families) {
    $("family").append(new Option(family.title, family.name));
    if (family.generates) $("generate-family").append(new Option(family.title, family.name));
  }
  offerSizes();
  $("text").addEventListener("input", () => textChanged());
  $("text").addEventListener("scroll", fitGutter);
  new ResizeObserver(fitGutter).observe($("text"));
  $("family").addEventListener("change", () => { offerEncodings(null); textChanged(); });
  $("generate-family").addEventListener("change", offerSizes);
  for (const command of ["solve", "check", "hint", "count"]) {
    $(command).addEventListener("click", () => ask(command));
  }
  $("apply").addEventListener("click", applyHint);
  $("steps").addEventListener("click", hintToTheEnd);
  $("stop").addEventListener("click", () => { stopping = true; });
  $("generator").addEventListener("submit", generate);
  numberLines(null);
  if ($("text").value.trim()) await redraw();
  document.body.dataset.ready = "true";
}

start();
