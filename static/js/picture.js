// Tap targets laid over the layout picture (templates/_dominoes.html, layout_picture).
//
// The server writes where each target goes as data-left / data-top (the end marker's centre,
// in % of the picture) and data-size (the marker's halo, in % of the picture's width). A
// strict Content-Security-Policy forbids style="..." attributes, so the places are set here,
// through the element's style object, and only then is the overlay shown. Without
// JavaScript it stays hidden and the end buttons below the picture do the job.
(function () {
  "use strict";

  function percent(text) {
    const value = Number(text);
    return text !== undefined && text !== "" && Number.isFinite(value) ? value + "%" : null;
  }

  // A target is as wide as its marker's halo, grown with the marker (enlarge, below).
  function sizeTarget(overlay, target) {
    const size = Number(target.dataset.size);
    if (target.dataset.size === undefined || !Number.isFinite(size)) return;
    const svg = overlay.parentElement && overlay.parentElement.querySelector(".table-picture__svg");
    const grow = (svg && Number(svg.dataset.endGrow)) || 1;
    target.style.width = size * grow + "%";
  }

  function lay(overlay) {
    let laid = 0;
    overlay.querySelectorAll(".table-picture__target").forEach(function (target) {
      const left = percent(target.dataset.left);
      const top = percent(target.dataset.top);
      if (left === null || top === null) return;
      target.style.left = left;
      target.style.top = top;
      sizeTarget(overlay, target);
      laid += 1;
    });
    if (laid) {
      overlay.hidden = false;
      apart(overlay);
    }
  }

  // Two targets that overlap (ends close together in a picture drawn small) would take a
  // finger aiming at one to the other: neither is laid, and the buttons below the picture
  // name them apart.
  function apart(overlay) {
    const targets = Array.prototype.slice.call(
      overlay.querySelectorAll(".table-picture__target")
    );
    targets.forEach(function (target) {
      target.hidden = false;
    });
    const boxes = targets.map(function (target) {
      return target.getBoundingClientRect();
    });
    const clash = targets.map(function () {
      return false;
    });
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
          clash[i] = clash[j] = true;
        }
      }
    }
    targets.forEach(function (target, index) {
      target.hidden = clash[index];
    });
  }

  // The open ends' numbers are read from across the table: however small the picture is
  // drawn (a long layout of 6 to 8 players on a phone), each end's marker is drawn large
  // enough for its number to be at least 16 px, grown round its own centre. The picture's
  // scale is the SVG's drawn width over its viewBox's (its proportions are kept).
  const END_NUMBER_PX = 16;

  // Nor are the tiles drawn smaller than they can be read: a tile 12 px wide while no half on
  // the table shows more than six pips (a half 12 px square), 16 px once one shows seven to
  // twelve (a larger set's), both grown with the reader's text size. A table's picture is scaled to the room the screen leaves it; late in a hand
  // of 6 to 8 players on a double-twelve set (65 tiles in a 336x103 px box upright) that was
  // a tile 3 px wide, and at 200 % text with a notice and the call row showing, a picture of
  // a few tiles shrank likewise. Below the floor the picture keeps it and scrolls inside its
  // box, which is marked as scrolling (screen.css, .layout[data-scrolls]) and shows the open
  // ends first: the next entry's controls keep their place under the thumb, and the tiles
  // stay readable. A larger arrangement for big tables (more rows) was weighed and left: the
  // phone's room, not the arrangement, is short (65 tiles at 16 px take 33,000 px^2, about
  // the whole box), so any arrangement readable on a phone scrolls.
  const TILE_PX = 12;
  const LARGER_TILE_PX = 16;
  const TILE_UNITS = 50; // a tile's width in SVG units (scorekeeper/web/drawing/picture.py)
  const DEFAULT_TEXT_PX = 16;

  // The least width a tile of ``svg`` is drawn at, in CSS px.
  function leastTile(svg) {
    let most = 0;
    svg.querySelectorAll(".table-tile[data-tile]").forEach(function (tile) {
      tile.dataset.tile.split("-").forEach(function (half) {
        most = Math.max(most, Number(half) || 0);
      });
    });
    const text = parseFloat(getComputedStyle(document.documentElement).fontSize);
    const grow = Math.max(1, (text || DEFAULT_TEXT_PX) / DEFAULT_TEXT_PX);
    return (most > 6 ? LARGER_TILE_PX : TILE_PX) * grow;
  }

  function keepReadable(svg) {
    const box = svg.closest(".screen--fit .layout");
    const view = svg.viewBox && svg.viewBox.baseVal;
    if (!box || !view || !view.width || !view.height) return;
    svg.style.removeProperty("width");
    svg.style.removeProperty("height");
    const room = box.getBoundingClientRect();
    if (!room.width || !room.height) return;
    const least = leastTile(svg);
    const fits = Math.min(room.width / view.width, room.height / view.height);
    if (fits * TILE_UNITS >= least) {
      if (box.hasAttribute("data-scrolls")) {
        box.removeAttribute("data-scrolls");
        box.removeAttribute("tabindex");
      }
      return;
    }
    const scale = least / TILE_UNITS;
    svg.style.width = view.width * scale + "px";
    svg.style.height = view.height * scale + "px";
    box.setAttribute("data-scrolls", "");
    // A box that scrolls is reached by the keyboard too (its arrows scroll it).
    box.tabIndex = 0;
    // The open ends first: the middle of those the picked tile fits, else of them all.
    let ends = svg.querySelectorAll(".end-marker--fits .end-marker__ring");
    if (!ends.length) ends = svg.querySelectorAll(".end-marker__ring");
    if (!ends.length) return;
    let x = 0;
    let y = 0;
    ends.forEach(function (ring) {
      x += (Number(ring.getAttribute("cx")) - view.x) * scale;
      y += (Number(ring.getAttribute("cy")) - view.y) * scale;
    });
    const picture = svg.getBoundingClientRect();
    const left = picture.left - room.left + box.scrollLeft + x / ends.length;
    const top = picture.top - room.top + box.scrollTop + y / ends.length;
    box.scrollLeft = left - room.width / 2;
    box.scrollTop = top - room.height / 2;
  }

  function enlarge(svg, width, height) {
    const view = svg.viewBox && svg.viewBox.baseVal;
    if (!view || !view.width || !view.height || !width) return;
    const scale = Math.min(width / view.width, height / view.height);
    svg.dataset.endGrow = "1";
    svg.querySelectorAll(".end-marker").forEach(function (marker) {
      const ring = marker.querySelector(".end-marker__ring");
      const number = marker.querySelector(".end-marker__number");
      if (!ring || !number) return;
      const drawn = Number(number.getAttribute("font-size")) * scale;
      if (!(drawn > 0) || drawn >= END_NUMBER_PX) {
        marker.removeAttribute("transform");
        return;
      }
      const grow = (END_NUMBER_PX / drawn).toFixed(3);
      svg.dataset.endGrow = grow;
      const x = Number(ring.getAttribute("cx"));
      const y = Number(ring.getAttribute("cy"));
      const transform =
        "translate(" + x + " " + y + ") scale(" + grow + ") translate(" + -x + " " + -y + ")";
      if (marker.getAttribute("transform") !== transform) marker.setAttribute("transform", transform);
    });
  }

  // A picture's end markers and targets follow the size it is drawn at, and they are placed
  // once the browser has laid the page out for its next frame: a ResizeObserver is told each
  // picture's size then (a new picture's once, and again when the window turns), so nothing
  // here asks for a layout while a new table is being swapped in: that would lay the whole
  // new table out once more, on every entry. A kept picture (fragments.part) keeps what was
  // set on it.
  const watched = new Set();
  const sizes = typeof ResizeObserver === "function" ? new ResizeObserver(resized) : null;
  // The picture's room changes without a swap too (a notice arriving above it, the call row,
  // the text size): its tiles are kept readable as it does (keepReadable sets the picture's
  // own size, which the observer above then follows with the end markers).
  const roomsWatched = new Set();
  const rooms =
    typeof ResizeObserver === "function"
      ? new ResizeObserver(function (entries) {
          entries.forEach(function (entry) {
            const svg = entry.target.querySelector(".table-picture__svg");
            if (svg && svg.isConnected) keepReadable(svg);
          });
        })
      : null;
  let showing = false;

  function place(svg, width, height) {
    enlarge(svg, width, height);
    const overlay = svg.parentElement && svg.parentElement.querySelector(".table-picture__targets");
    if (!overlay) return;
    if (overlay.hidden) {
      lay(overlay);
      return;
    }
    overlay.querySelectorAll(".table-picture__target").forEach(function (target) {
      sizeTarget(overlay, target);
    });
    apart(overlay);
  }

  function resized(entries) {
    entries.forEach(function (entry) {
      const svg = entry.target;
      if (!svg.isConnected) return;
      const box = entry.borderBoxSize && entry.borderBoxSize[0];
      place(
        svg,
        box ? box.inlineSize : entry.contentRect.width,
        box ? box.blockSize : entry.contentRect.height
      );
    });
    if (showing) {
      showing = false;
      showTargets();
    }
  }

  function watch(root) {
    roomsWatched.forEach(function (box) {
      if (!box.isConnected) {
        roomsWatched.delete(box);
        rooms.unobserve(box);
      }
    });
    watched.forEach(function (svg) {
      if (!svg.isConnected) {
        watched.delete(svg);
        if (sizes) sizes.unobserve(svg);
      }
    });
    const found = root.matches && root.matches(".table-picture__svg") ? [root] : [];
    (root.querySelectorAll ? root.querySelectorAll(".table-picture__svg") : []).forEach(
      function (svg) {
        found.push(svg);
      }
    );
    found.forEach(function (svg) {
      // A kept picture is moved into the new table's box: that box is watched too.
      const room = svg.closest(".screen--fit .layout");
      if (room && rooms && !roomsWatched.has(room)) {
        roomsWatched.add(room);
        rooms.observe(room);
      }
      if (watched.has(svg)) return;
      if (sizes) {
        watched.add(svg);
        sizes.observe(svg);
      } else {
        // No ResizeObserver (an old browser): measured at once.
        const box = svg.getBoundingClientRect();
        place(svg, box.width, box.height);
      }
    });
  }

  // After a tile that fits several ends is picked, scroll up as far as the end buttons below
  // the picture stay in view: as much of the picture as possible shows, its fitting ends (the
  // targets) first. The page scrolls down only to bring end buttons out from under Draw and
  // Undo stuck at the screen's foot (large text), and a live update (which keeps the reader's
  // scroll position) never comes here.
  const MARGIN = 8;

  function showTargets() {
    const overlay = document.querySelector(".table-picture__targets:not([hidden])");
    const button = document.querySelector(".choose-end .end-button");
    if (!overlay || !button) return;
    let top = Infinity;
    overlay.querySelectorAll(".table-picture__target:not([hidden])").forEach(function (target) {
      top = Math.min(top, target.getBoundingClientRect().top);
    });
    if (top === Infinity) return;
    const board = document.querySelector(".scoreboard");
    const covered = board ? board.getBoundingClientRect().bottom : 0;
    const hidden = covered + MARGIN - top;
    // Every end button stays in view, above the row stuck to the screen's foot (if any):
    // several of them wrap onto more than one line with large text.
    const buttons = button.closest(".end-buttons") || button;
    const room = foot() - MARGIN - buttons.getBoundingClientRect().bottom;
    const up = Math.min(hidden, room);
    if (up > 0) window.scrollBy(0, -up);
    else if (room < 0) window.scrollBy(0, -room);
  }

  // Where the thumb left the tray stays where it is across an entry. On a screen that flows
  // (large text) Draw / Pass / Undo stay at the foot of the screen (sticky), the tray just
  // above them; what grows above the tray (the picture, a notice) or in that row (Undo's
  // entry taking another line) would push the tray under them, and the next tile a scroll
  // away. The tray's foot keeps its distance to theirs: measured before the tile that fits
  // several ends is picked (showTargets then scrolls up to its ends) and put back after the
  // entry that follows. A table that fits the screen has nothing stuck, so nothing moves.
  let trayGap = null;

  function tray() {
    return document.querySelector("#table form.picker");
  }

  function stuck() {
    const row = document.querySelector("#table .actions");
    return row && getComputedStyle(row).position === "sticky" ? row : null;
  }

  // The foot of what can be seen: the top of the row stuck to the screen's foot, if any.
  function foot() {
    const row = stuck();
    return row ? row.getBoundingClientRect().top : window.innerHeight;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    showing = false;
    const target = event.detail.target;
    const shown = tray();
    if (!target || target.id !== "table" || !shown || !stuck()) return;
    if (!document.querySelector("#table .choose-end")) {
      trayGap = foot() - shown.getBoundingClientRect().bottom;
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // Nothing measured before the swap, nothing asked of the new table's layout.
    if (trayGap === null) return;
    const target = event.detail.target;
    const shown = tray();
    if (!target || target.id !== "table" || !shown || !stuck()) return;
    const moved = trayGap - (foot() - shown.getBoundingClientRect().bottom);
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  });

  watch(document);
  // htmx swaps in a new table after every entry and every live update.
  document.addEventListener("htmx:load", function (event) {
    watch(event.detail && event.detail.elt ? event.detail.elt : document);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    const config = event.detail.requestConfig;
    const from = config && config.elt;
    if (!from || !from.matches || !from.matches("form.picker")) return;
    // The picked tile's targets are laid when the new picture's size is known.
    if (document.querySelector(".table-picture__targets:not([hidden])")) showTargets();
    else showing = true;
  });
})();
