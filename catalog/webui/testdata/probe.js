// Test probe for TestUIKeyboardAndWidth, served from the page's own origin
// (the CSP allows no other script): it checks what a keyboard user and a
// narrow screen need, and writes what it found to <html data-probe="...">
// for the test to read from Chromium's --dump-dom.
(function () {
  "use strict";
  var problems = [];
  function name(el) {
    var s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.className && typeof el.className === "string") s += "." + el.className.split(" ").join(".");
    var text = (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 40);
    return text ? s + " (" + text + ")" : s;
  }
  var doc = document.documentElement;
  // Readable at this width: the page itself never scrolls sideways; wide
  // tables and code scroll inside their own box.
  if (doc.scrollWidth > doc.clientWidth) {
    var wide = [];
    Array.prototype.forEach.call(document.body.querySelectorAll("*"), function (el) {
      var r = el.getBoundingClientRect();
      if (r.right > doc.clientWidth + 1 && el.closest(".scroll, pre") === null && wide.length < 5) wide.push(name(el));
    });
    problems.push("the page is " + doc.scrollWidth + "px wide in a " + doc.clientWidth + "px window: " + wide.join(", "));
  }
  var controls = document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]");
  Array.prototype.forEach.call(controls, function (el) {
    if (el.tabIndex < 0 && el.tagName !== "MAIN") {
      problems.push(name(el) + " is not in the tab order");
      return;
    }
    if (el.tagName === "MAIN") return; // the skip link's target, focused by it only
    el.focus();
    if (document.activeElement !== el) {
      problems.push(name(el) + " does not take focus");
      return;
    }
    var st = getComputedStyle(el);
    if (st.outlineStyle === "none" || parseFloat(st.outlineWidth) === 0) {
      problems.push(name(el) + " shows no focus outline");
    }
    if ((el.tagName === "INPUT" || el.tagName === "SELECT") && el.labels.length === 0 && !el.getAttribute("aria-label")) {
      problems.push(name(el) + " has no label");
    }
  });
  // A box that scrolls must take focus, or a keyboard cannot scroll it.
  Array.prototype.forEach.call(document.body.querySelectorAll("*"), function (el) {
    var ox = getComputedStyle(el).overflowX;
    if ((ox === "auto" || ox === "scroll") && el.scrollWidth > el.clientWidth && el.tabIndex < 0) {
      problems.push(name(el) + " scrolls sideways but takes no focus");
    }
  });
  var skip = document.querySelector("a.skip");
  if (!skip || !document.querySelector(skip.getAttribute("href"))) problems.push("no skip link to the content");
  if (document.activeElement) document.activeElement.blur();
  var out = window.parent !== window ? window.parent.document.documentElement : doc;
  out.setAttribute("data-probe", JSON.stringify({
    width: window.innerWidth, controls: controls.length, problems: problems
  }));
})();
