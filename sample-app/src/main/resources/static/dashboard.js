// poolkit sample dashboard: polls /actuator/pools every second, keeps the last minute of samples and draws them
// on one <canvas> per pool and per semaphore. No libraries, no build step.
(function () {
  "use strict";

  const HISTORY = 60;          // samples kept per series: one minute at one sample a second
  const POLL_MILLIS = 1000;
  const COLORS = { running: "#1f77b4", waiting: "#d62728", free: "#2ca02c", used: "#ff7f0e", available: "#2ca02c" };
  const POOL_SERIES = ["running", "waiting", "free"];
  const SEMAPHORE_SERIES = ["used", "available"];

  // name -> { latest: {...numbers}, series: { running: [..], ... } }; readable from the browser console (and tests).
  const state = { pools: {}, semaphores: {}, samples: 0 };
  window.poolkitDashboard = state;

  function $(id) { return document.getElementById(id); }

  function setStatus(text, ok) {
    const status = $("status");
    status.textContent = text;
    status.className = ok ? "" : "down";
  }

  // Creates the card of one pool or semaphore the first time it is seen; the element ids are stable:
  // <kind>-<name>-<field> for each number and <kind>-<name>-chart for the canvas.
  function card(container, kind, name, fields) {
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
      values.push(sample[s]);
      if (values.length > HISTORY) {
        values.shift();
      }
    });
    return entry;
  }

  // Plots each series as a line, newest sample at the right edge; negative values (unlimited) are not drawn.
  function draw(canvas, entry, seriesNames, ceiling) {
    const ctx = canvas.getContext("2d");
    const width = canvas.width, height = canvas.height, top = 14, bottom = height - 4, left = 34, right = width - 4;
    let max = Math.max(1, ceiling);
    seriesNames.forEach(function (s) { entry.series[s].forEach(function (v) { max = Math.max(max, v); }); });
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
        if (v < 0) {
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

  function show(kind, name, sample, fields) {
    fields.forEach(function (field) {
      const value = $(kind + "-" + name + "-" + field);
      if (value) {
        value.textContent = String(sample[field]);
      }
    });
  }

  function render(snapshot) {
    const pools = snapshot.pools || {};
    Object.keys(pools).sort().forEach(function (name) {
      const sample = pools[name];
      const element = card($("pools"), "pool", name, ["capacity", "running", "waiting", "free", "closed", "rejected"]);
      element.classList.toggle("closed", sample.closed === true);
      const entry = record(state.pools, name, sample, POOL_SERIES);
      show("pool", name, sample, ["capacity", "running", "waiting", "free", "closed"]);
      draw($("pool-" + name + "-chart"), entry, POOL_SERIES, sample.capacity);
    });
    const semaphores = snapshot.semaphores || {};
    Object.keys(semaphores).sort().forEach(function (name) {
      const sample = semaphores[name];
      card($("semaphores"), "semaphore", name, ["size", "used", "available", "waiting"]);
      const entry = record(state.semaphores, name, sample, SEMAPHORE_SERIES);
      show("semaphore", name, sample, ["size", "used", "available", "waiting"]);
      draw($("semaphore-" + name + "-chart"), entry, SEMAPHORE_SERIES, sample.size);
    });
    state.samples++;
    $("sample-count").textContent = String(state.samples);
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

  // The starter counts every task a pool refuses (poolkit.pool.tasks, outcome=rejected): a running total of
  // back-pressure, shown as text next to each pool.
  async function showRejected(poolNames) {
    const totals = await Promise.all(poolNames.map(function (name) {
      return getJson("/actuator/metrics/poolkit.pool.tasks?tag=name:" + encodeURIComponent(name) + "&tag=outcome:rejected")
        .then(function (metric) { return metric.measurements[0].value; });
    }));
    poolNames.forEach(function (name, i) {
      $("pool-" + name + "-rejected").textContent = String(totals[i]);
    });
  }

  async function poll() {
    try {
      const snapshot = await getJson("/actuator/pools");
      render(snapshot);
      await showRejected(Object.keys(snapshot.pools || {}));
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
