// poolkit sample dashboard: polls /actuator/pools every second, keeps the last minute of samples and draws them
// on one <canvas> per pool, per scheduler, per semaphore and per other executor of the application (Boot's, the web
// server's request threads as "webServer"). No libraries, no build step.
// A pool's workers are busy (running a task) or idle (alive, waiting for one): idle = running - busy. What waits
// is either queued (a task in the pool's queue) or blocked (a caller stuck in execute because the queue is full).
(function () {
  "use strict";

  const HISTORY = 60;          // samples kept per series: one minute at one sample a second
  const POLL_MILLIS = 1000;
  const COLORS = { busy: "#1f77b4", idle: "#9ecae1", queued: "#ff7f0e", blocked: "#d62728", pending: "#9467bd",
    used: "#ff7f0e", available: "#2ca02c", limit: "#17becf" };
  // "limit" is an adaptive pool's capacity, drawn only for a pool whose capacity follows an adaptive limit.
  const POOL_SERIES = ["busy", "idle", "queued", "blocked", "limit"];
  const SCHEDULER_SERIES = ["pending", "busy", "queued"];
  const SEMAPHORE_SERIES = ["used", "available"];
  const EXECUTOR_SERIES = ["busy", "idle", "queued"];
  // The numbers of each card, one line per group.
  const POOL_FIELDS = [["capacity", "adaptive", "free", "closed", "rejected", "overdue"], ["busy", "idle", "running"],
    ["queued", "blocked", "waiting"]];
  const SCHEDULER_FIELDS = [["capacity", "pending", "closed", "completed"], ["busy", "idle", "running"],
    ["queued"]];
  const SEMAPHORE_FIELDS = [["size", "used", "available", "waiting", "scope"]];
  // An executor poolkit did not create shows only what it can tell: a missing field reads "n/a".
  const EXECUTOR_FIELDS = [["type", "capacity", "coreSize"], ["busy", "idle", "running"],
    ["queued", "queueRemaining", "completed"]];

  // name -> { latest: {...numbers}, series: { busy: [..], ... } }; readable from the browser console (and tests).
  const state = { pools: {}, schedulers: {}, semaphores: {}, executors: {}, samples: 0 };
  window.poolkitDashboard = state;

  function $(id) { return document.getElementById(id); }

  function setStatus(text, ok) {
    const status = $("status");
    status.textContent = text;
    status.className = ok ? "" : "down";
  }

  // Creates the card of one pool, scheduler or semaphore the first time it is seen; the element ids are stable:
  // <kind>-<name>-<field> for each number, <kind>-<name>-error for why its figures could not be read (empty when
  // they could) and <kind>-<name>-chart for the canvas.
  function card(container, kind, name, lines) {
    const id = kind + "-" + name;
    let element = $(id);
    if (element) {
      return element;
    }
    element = document.createElement("div");
    element.className = "card";
    element.id = id;
    const title = document.createElement("h3");
    title.textContent = name;
    element.appendChild(title);
    lines.forEach(function (fields) {
      const numbers = document.createElement("div");
      numbers.className = "numbers";
      fields.forEach(function (field, index) {
        if (index > 0) {
          numbers.appendChild(document.createTextNode(" \u00b7 "));
        }
        numbers.appendChild(document.createTextNode(field + " "));
        const value = document.createElement("span");
        value.id = id + "-" + field;
        value.textContent = "-";
        numbers.appendChild(value);
      });
      element.appendChild(numbers);
    });
    const error = document.createElement("div");
    error.className = "error";
    error.id = id + "-error";
    element.appendChild(error);
    const canvas = document.createElement("canvas");
    canvas.id = id + "-chart";
    canvas.width = 360;
    canvas.height = 140;
    element.appendChild(canvas);
    container.appendChild(element);
    return element;
  }

  function record(store, name, sample, seriesNames) {
    let entry = store[name];
    if (!entry) {
      entry = { latest: null, series: {} };
      seriesNames.forEach(function (s) { entry.series[s] = []; });
      store[name] = entry;
    }
    entry.latest = sample;
    seriesNames.forEach(function (s) {
      const values = entry.series[s];
      values.push(typeof sample[s] === "number" ? sample[s] : null);
      if (values.length > HISTORY) {
        values.shift();
      }
    });
    return entry;
  }

  // Plots each series as a line, newest sample at the right edge; negative values (unlimited) and missing ones (a
  // figure the executor cannot tell) are not drawn.
  function draw(canvas, entry, seriesNames, ceiling) {
    const ctx = canvas.getContext("2d");
    const width = canvas.width, height = canvas.height, top = 14, bottom = height - 4, left = 34, right = width - 4;
    let max = Math.max(1, ceiling);
    seriesNames.forEach(function (s) {
      entry.series[s].forEach(function (v) { if (v !== null) { max = Math.max(max, v); } });
    });
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = "#666";
    ctx.font = "10px monospace";
    ctx.fillText(String(max), 2, top + 4);
    ctx.fillText("0", 2, bottom);
    ctx.fillText("last 60 s", right - 50, 10);
    ctx.strokeStyle = "#ddd";
    ctx.beginPath();
    ctx.moveTo(left, top);
    ctx.lineTo(right, top);
    ctx.moveTo(left, bottom);
    ctx.lineTo(right, bottom);
    ctx.stroke();
    const step = (right - left) / (HISTORY - 1);
    seriesNames.forEach(function (s) {
      const values = entry.series[s];
      const offset = HISTORY - values.length;
      ctx.strokeStyle = COLORS[s];
      ctx.lineWidth = 2;
      ctx.beginPath();
      let drawing = false;
      values.forEach(function (v, i) {
        if (v === null || v < 0) {
          drawing = false;
          return;
        }
        const x = left + (offset + i) * step;
        const y = bottom - (v / max) * (bottom - top);
        if (drawing) {
          ctx.lineTo(x, y);
        } else {
          ctx.moveTo(x, y);
          drawing = true;
        }
      });
      ctx.stroke();
    });
  }

  // The figures that mean "no bound" when negative (-1) or, for an executor's unbounded queue, Integer.MAX_VALUE.
  const UNLIMITED_FIELDS = ["capacity", "free", "queueRemaining"];
  const INT_MAX = 2147483647;

  // The text of one figure: "n/a" for one the executor cannot tell or a semaphore that could not be read (its entry
  // has an "error" and -1 for every number), "unlimited" for a bound that is none, else the value itself.
  function figure(sample, field) {
    const value = sample[field];
    if (value === undefined || value === null || (sample.error && typeof value === "number")) {
      return "n/a";
    }
    if (UNLIMITED_FIELDS.indexOf(field) >= 0 && (value < 0 || value === INT_MAX)) {
      return "unlimited";
    }
    return String(value);
  }

  function show(kind, name, sample, lines) {
    lines.forEach(function (fields) {
      fields.forEach(function (field) {
        const value = $(kind + "-" + name + "-" + field);
        if (value) {
          value.textContent = figure(sample, field);
        }
      });
    });
    // Why the figures could not be read (a cluster-wide semaphore whose Redis is unreachable), or nothing.
    const error = $(kind + "-" + name + "-error");
    if (error) {
      error.textContent = sample.error ? "unreadable: " + sample.error : "";
    }
  }

  // Shows every entry of one section of the snapshot: its card, its numbers and its chart.
  function renderSection(entries, container, kind, store, lines, series, ceiling) {
    Object.keys(entries || {}).sort().forEach(function (name) {
      const sample = Object.assign({}, entries[name]);
      if (typeof sample.running === "number" && typeof sample.busy === "number") {
        sample.idle = Math.max(0, sample.running - sample.busy);
      }
      if (kind === "pool") { // an adaptive pool: its capacity over time, and its algorithm and bounds as text
        const adaptive = sample.adaptive;
        sample.limit = adaptive ? sample.capacity : null;
        sample.adaptive = adaptive ? adaptive.algorithm + " " + (adaptive.min === undefined ? "" : adaptive.min
          + ".." + adaptive.max) : "none";
      }
      const element = card(container, kind, name, lines);
      element.classList.toggle("closed", sample.closed === true);
      element.classList.toggle("unreadable", typeof sample.error === "string");
      const entry = record(store, name, sample, series);
      show(kind, name, sample, lines);
      draw($(kind + "-" + name + "-chart"), entry, series, ceiling(sample));
    });
  }

  function render(snapshot) {
    renderSection(snapshot.pools, $("pools"), "pool", state.pools, POOL_FIELDS, POOL_SERIES,
      function (s) { return s.capacity; });
    renderSection(snapshot.schedulers, $("schedulers"), "scheduler", state.schedulers, SCHEDULER_FIELDS,
      SCHEDULER_SERIES, function (s) { return s.capacity; });
    renderSection(snapshot.semaphores, $("semaphores"), "semaphore", state.semaphores, SEMAPHORE_FIELDS,
      SEMAPHORE_SERIES, function (s) { return s.size; });
    renderSection(snapshot.executors, $("executors"), "executor", state.executors, EXECUTOR_FIELDS,
      EXECUTOR_SERIES, function (s) { return s.coreSize || 0; });
    state.samples++;
    $("sample-count").textContent = String(state.samples);
  }

  // Lists the latest overdue tasks of every pool and scheduler, newest first (recentOverdue of each entry).
  function listOverdue(snapshot) {
    const entries = [];
    [snapshot.pools, snapshot.schedulers].forEach(function (section) {
      Object.keys(section || {}).forEach(function (name) {
        (section[name].recentOverdue || []).forEach(function (e) { entries.push(Object.assign({ pool: name }, e)); });
      });
    });
    entries.sort(function (a, b) { return a.at < b.at ? 1 : a.at > b.at ? -1 : 0; });
    const list = $("overdue");
    list.replaceChildren();
    entries.slice(0, 10).forEach(function (e) {
      const item = document.createElement("li");
      item.textContent = new Date(e.at).toLocaleTimeString() + " " + e.pool + ": " + e.kind + " '" + e.task + "'"
        + (e.thread ? " on " + e.thread : "") + " after " + e.elapsedMs + " ms";
      list.appendChild(item);
    });
  }

  function listReminders(listId, reminders) {
    const list = $(listId);
    list.replaceChildren();
    reminders.forEach(function (r) {
      const item = document.createElement("li");
      item.textContent = "#" + r.id + " " + r.text + " (due " + new Date(r.dueAt).toLocaleTimeString() + ")";
      list.appendChild(item);
    });
  }

  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (!response.ok) {
      throw new Error(url + " answered " + response.status);
    }
    return response.json();
  }

  async function poll() {
    try {
      const snapshot = await getJson("/actuator/pools");
      render(snapshot);
      listOverdue(snapshot);
      $("overdue-events").textContent = String((await getJson("/api/overdue")).events);
      const pending = await getJson("/api/reminders");
      $("reminders-pending-count").textContent = String(pending.length);
      listReminders("reminders-pending", pending);
      listReminders("reminders-fired", await getJson("/api/reminders/fired"));
      setStatus("live", true);
    } catch (e) {
      setStatus("cannot reach the application (" + e.message + "); retrying", false);
    } finally {
      setTimeout(poll, POLL_MILLIS);
    }
  }

  // Sends one request and sums up its answer in one line; 429 and 400 are answers, not failures.
  async function send(url, body) {
    const init = { method: "POST", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const json = await response.json().catch(function () { return {}; });
    return { status: response.status, json: json };
  }

  async function burst(button) {
    const url = button.dataset.url;
    const repeat = Number(button.dataset.repeat || 1);
    $("last-result").textContent = button.id + ": sending\u2026";
    try {
      if (button.dataset.delayMs) {
        const answer = await send(url, { text: "a reminder from the dashboard", delayMs: Number(button.dataset.delayMs) });
        $("last-result").textContent = answer.status === 201
          ? "reminder #" + answer.json.id + " due at " + new Date(answer.json.dueAt).toLocaleTimeString()
          : "reminder refused: " + answer.status + " " + (answer.json.detail || "");
        return;
      }
      const answers = await Promise.all(Array.from({ length: repeat }, function () { return send(url); }));
      if (answers.length === 1 && answers[0].status === 200) {
        const r = answers[0].json;
        $("last-result").textContent = r.pool + ": " + r.accepted + " accepted, " + r.rejected + " rejected";
      } else {
        const counts = {};
        answers.forEach(function (a) { counts[a.status] = (counts[a.status] || 0) + 1; });
        $("last-result").textContent = button.id + ": " + Object.keys(counts)
          .map(function (status) { return counts[status] + " \u00d7 HTTP " + status; }).join(", ");
      }
    } catch (e) {
      $("last-result").textContent = button.id + " failed: " + e.message;
    }
  }

  document.querySelectorAll("#actions button").forEach(function (button) {
    button.addEventListener("click", function () { burst(button); });
  });
  poll();
})();
