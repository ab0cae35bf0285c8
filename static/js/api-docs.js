/* Starts Swagger UI on /api/docs/ from a static file (issue 16: a Content-Security-Policy with no
   inline script). The schema's address and the CSRF header come from #swagger-ui's data
   attributes; Swagger UI's online validator is off, so the page loads nothing from elsewhere. */
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || !window.SwaggerUIBundle) return;
  var csrfHeader = root.dataset.csrfHeader, csrfToken = root.dataset.csrfToken;
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.schemaUrl,
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    validatorUrl: null,
    requestInterceptor: function (request) {
      // Writes from "Try it out" with the session login carry the CSRF token.
      if (request.method && request.method !== "GET" && csrfHeader && csrfToken) {
        request.headers[csrfHeader] = csrfToken;
      }
      return request;
    }
  });
})();
