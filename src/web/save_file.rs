//! Saving bytes as a file the browser downloads (the runnable job's zip, an exported scenario):
//! through a Blob URL, since a data URL is limited in size.

use wasm_bindgen::JsCast;

/// Saves bytes as a file of type `mime` through a Blob URL (a data URL is limited in size).
pub fn save(filename: &str, mime: &str, bytes: &[u8]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", filename);
        if let (Some(body), Some(el)) = (doc.body(), a.dyn_ref::<web_sys::HtmlElement>()) {
            let _ = body.append_child(&a);
            el.click();
            let _ = body.remove_child(&a);
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}
