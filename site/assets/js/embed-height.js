// An embed page in an iframe posts its height to the page around it whenever it changes, as
// {benchdb: "embed-height", height} (CSS pixels). Any page may receive it: it says nothing but a height.
// /embed/resize.js, which an embedding page may include, sets the iframe's height from it.
if (window.parent !== window) {
  let last = 0;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      window.parent.postMessage({benchdb: "embed-height", height}, "*");
    }
  };
  new ResizeObserver(post).observe(document.documentElement);
  window.addEventListener("load", post);
}
