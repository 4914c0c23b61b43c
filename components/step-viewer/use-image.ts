"use client";

import { useEffect, useState } from "react";

/** Load an image element for Konva; undefined until it has loaded. */
export function useImage(url: string): { image: HTMLImageElement | undefined; isError: boolean } {
  const [state, setState] = useState<{ url: string; image?: HTMLImageElement; isError: boolean }>({ url, isError: false });
  useEffect(() => {
    const img = new window.Image();
    let isLive = true;
    img.onload = () => isLive && setState({ url, image: img, isError: false });
    img.onerror = () => isLive && setState({ url, isError: true });
    img.src = url;
    return () => {
      isLive = false;
    };
  }, [url]);
  // A stale image from the previous URL is never shown with the new step's overlay.
  return state.url === url ? { image: state.image, isError: state.isError } : { image: undefined, isError: false };
}
