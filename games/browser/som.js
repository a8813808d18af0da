// Set-of-Marks collection, run inside the page (see games/browser/som.py for the rules it follows).
// Returns the viewport's marked elements and text pieces in DOM order; ids are given in Python.
(arg) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const maxArea = arg.skipRatio * vw * vh;
  const INTERACTIVE = [
    'a[href]', 'button', 'input:not([type="hidden"])', 'textarea', 'select',
    '[tabindex]:not([tabindex="-1"])', '[contenteditable="true"]', '[contenteditable=""]',
    '[role="button"]', '[role="link"]', '[role="checkbox"]', '[role="menuitem"]',
    '[role="tab"]', '[draggable="true"]'].join(',');
  const TEXT_TAGS = new Set(['P', 'SPAN', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'ARTICLE',
    'TD', 'TH', 'LABEL', 'DT', 'DD', 'FIGCAPTION', 'CAPTION']);
  const TYPABLE = new Set(['', 'text', 'search', 'email', 'password', 'number', 'url', 'tel']);
  const squash = (s) => (s || '').replace(/\s+/g, ' ').trim().slice(0, arg.maxText);

  const visibleBox = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return null;
    if (r.right <= 0 || r.bottom <= 0 || r.left >= vw || r.top >= vh) return null;
    if (r.width * r.height > maxArea) return null;
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, visibilityProperty: true, checkVisibilityCSS: true})) {
      return null;
    }
    const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top);
    const x1 = Math.min(vw, r.right), y1 = Math.min(vh, r.bottom);
    return {x: x0, y: y0, w: x1 - x0, h: y1 - y0};
  };
  const reachable = (el, b) => {
    const hit = document.elementFromPoint(b.x + b.w / 2, b.y + b.h / 2);
    if (!hit) return false;
    if (el === hit || el.contains(hit)) return true;
    // A label drawn over its own control still reaches it.
    return hit.tagName === 'LABEL' && hit.control === el;
  };
  const labelOf = (el) => {
    if (el.labels && el.labels.length) return el.labels[0].innerText;
    return '';
  };
  const nameOf = (el) => {
    const tag = el.tagName;
    if (tag === 'INPUT') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (['submit', 'button', 'reset'].includes(type)) return el.value;
      if (['checkbox', 'radio'].includes(type)) {
        return (labelOf(el) || el.getAttribute('aria-label') || el.name) +
          (el.checked ? ' (checked)' : '');
      }
      return el.value || el.placeholder || el.getAttribute('aria-label') || labelOf(el) || el.name;
    }
    if (tag === 'TEXTAREA') {
      return el.value || el.placeholder || el.getAttribute('aria-label') || labelOf(el);
    }
    if (tag === 'SELECT') {
      const opt = el.options[el.selectedIndex];
      return opt ? opt.text : (el.getAttribute('aria-label') || el.name);
    }
    const img = el.querySelector('img[alt]');
    return el.innerText || el.getAttribute('aria-label') || el.title ||
      (img ? img.alt : '') || el.getAttribute('value') || '';
  };
  const editable = (el) => {
    if (el.tagName === 'TEXTAREA' || el.isContentEditable) return true;
    if (el.tagName !== 'INPUT') return false;
    return TYPABLE.has((el.getAttribute('type') || '').toLowerCase());
  };
  const ownText = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const parts = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || (p !== el && p.closest(INTERACTIVE) && el.contains(p.closest(INTERACTIVE)))) continue;
      if (p.closest('script,style,noscript,template')) continue;
      if (p.checkVisibility && !p.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true})) continue;
      parts.push(n.nodeValue);
    }
    return squash(parts.join(' '));
  };
  // Text is read from the innermost holders: an element with text of its own, or one whose
  // children hold no text elements themselves (so a card's heading and price stay apart).
  const isTextHolder = (el) => {
    const listed = TEXT_TAGS.has(el.tagName);
    if (!listed && el.tagName !== 'DIV') return false;
    for (const c of el.childNodes) {
      if (c.nodeType === Node.TEXT_NODE && c.nodeValue.trim()) return true;
    }
    if (!listed) return false;
    for (const c of el.children) {
      if (TEXT_TAGS.has(c.tagName) || c.tagName === 'DIV') return false;
    }
    return true;
  };

  const items = [];
  const marked = [];
  let textOwner = null;
  for (const el of document.body ? document.body.querySelectorAll('*') : []) {
    if (el.matches(INTERACTIVE)) {
      const b = visibleBox(el);
      if (!b || !reachable(el, b)) continue;
      items.push({mark: true, tag: el.tagName, text: squash(nameOf(el)),
                  value: 'value' in el && typeof el.value === 'string' ? el.value : '',
                  editable: editable(el), select: el.tagName === 'SELECT',
                  options: el.tagName === 'SELECT' ? [...el.options].map((o) => o.text.trim()) : [],
                  ...b});
      marked.push(el);
      continue;
    }
    if (textOwner && textOwner.contains(el)) continue;
    if (el.closest(INTERACTIVE) || !isTextHolder(el)) continue;
    const b = visibleBox(el);
    if (!b) continue;
    const text = ownText(el);
    if (!text) continue;
    items.push({mark: false, tag: 'StaticText', text, value: '', editable: false,
                select: false, options: [], ...b});
    textOwner = el;
  }
  const targets = (arg.targets || []).map((t) => {
    if (!t) return -1;
    let i = marked.indexOf(t);
    for (let a = t.parentElement; i < 0 && a; a = a.parentElement) i = marked.indexOf(a);
    if (i < 0) i = marked.findIndex((m) => t.contains(m));
    return i;
  });
  return {items, targets, viewport: [vw, vh], scrollY: window.scrollY,
          pageHeight: document.documentElement.scrollHeight};
}
