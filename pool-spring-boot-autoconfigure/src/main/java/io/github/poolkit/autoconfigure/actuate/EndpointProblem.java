package io.github.poolkit.autoconfigure.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.MimeType;

/**
 * An RFC 9457 problem document ({@code application/problem+json}) answered by the {@code pools} endpoint, with the
 * extension member {@code field} naming the setting at fault.
 *
 * @param type   {@code "about:blank"}: the status code says it all
 * @param title  the status code's phrase
 * @param status the HTTP status code
 * @param detail what is wrong and what to do instead
 * @param field  the setting at fault, or {@code null}
 */
public record EndpointProblem(String type, String title, int status, String detail, @Nullable String field) {

    /** The problem document's media type. */
    public static final MimeType PROBLEM_JSON = MimeType.valueOf("application/problem+json");

    static WebEndpointResponse<Object> badRequest(InvalidSettingException ex) {
        return respond(new EndpointProblem("about:blank", "Bad Request", WebEndpointResponse.STATUS_BAD_REQUEST,
                ex.getMessage(), ex.field()));
    }

    static WebEndpointResponse<Object> notFound(String detail) {
        return respond(new EndpointProblem("about:blank", "Not Found", WebEndpointResponse.STATUS_NOT_FOUND, detail,
                null));
    }

    static WebEndpointResponse<Object> unavailable(String detail, String field) {
        return respond(new EndpointProblem("about:blank", "Service Unavailable",
                WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE, detail, field));
    }

    private static WebEndpointResponse<Object> respond(EndpointProblem problem) {
        return new WebEndpointResponse<>(problem, problem.status(), PROBLEM_JSON);
    }
}
