// The document the build-time renderers draw into: jsdom's, with each element's inline style object
// made when something first reads it rather than when the element is made.
//
// jsdom 26 gives every HTML and SVG element a CSSStyleDeclaration as it constructs it (eight properties
// defined one by one, two Maps), though a chart reads the style of only a few of its elements: in a
// CPU profile of the 6,800 embeds of a 1,000-bundle build, making them was 9% of the embed worker's
// time, and more of its garbage. Made on first use instead, the same object does the same work
// (a "style" attribute set or read through it, el.style set by Plot): the SVGs are byte for byte the
// same (tests/test_chart_snapshots.py; the 6,800 embeds compared whole), and the profile's share of
// cssstyle went from 9.2% to 1.9%.
//
// This reaches into jsdom's implementation classes, so package.json pins jsdom's version; if the names
// read here are gone, rendering stops with this file's name rather than running unchanged or half-patched.
import {createRequire} from "node:module";
import {JSDOM} from "jsdom";

const require = createRequire(createRequire(import.meta.url).resolve("jsdom"));
const {CSSStyleDeclaration} = require("cssstyle");  // the copy jsdom itself uses
const IMPLS = ["jsdom/lib/jsdom/living/nodes/HTMLElement-impl.js", "jsdom/lib/jsdom/living/nodes/SVGElement-impl.js"];

function implementation(path) {
  let proto;
  try {
    proto = require(path).implementation.prototype;
  } catch {
    proto = null;
  }
  if (typeof proto?._initElementCSSInlineStyle !== "function" || typeof CSSStyleDeclaration !== "function") {
    throw new Error(`site/render/dom.mjs: jsdom's ${path} no longer has the inline style this file patches ` +
      "(see package.json's jsdom version)");
  }
  return proto;
}

function lazyStyle(proto) {
  proto._initElementCSSInlineStyle = function init() {
    this._settingCssText = false;
  };
  // jsdom's own callback (ElementCSSInlineStyle-impl.js): a change made through the object is written
  // back to the element's style attribute, unless it came from that attribute
  Object.defineProperty(proto, "_style", {
    configurable: true,
    get() {
      const style = new CSSStyleDeclaration((text) => {
        if (!this._settingCssText) {
          this._settingCssText = true;
          this.setAttributeNS(null, "style", text);
          this._settingCssText = false;
        }
      });
      Object.defineProperty(this, "_style", {value: style, writable: true, configurable: true});
      return style;
    },
    set(value) {
      Object.defineProperty(this, "_style", {value, writable: true, configurable: true});
    },
  });
}

for (const path of IMPLS) lazyStyle(implementation(path));

// A new document to draw into.
export function newDocument() {
  return new JSDOM("<!doctype html><html><body></body></html>").window.document;
}
