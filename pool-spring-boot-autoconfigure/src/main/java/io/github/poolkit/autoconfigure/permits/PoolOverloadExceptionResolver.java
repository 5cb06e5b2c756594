package io.github.poolkit.autoconfigure.permits;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import io.github.poolkit.PoolOverloadException;

/**
 * Answers a {@link PoolOverloadException} that reached Spring MVC unhandled (a {@code @Permits} method whose permits
 * did not come, a pool that refused a task) with {@code 429 Too Many Requests}, a {@code Retry-After} header and an
 * RFC 9457 problem body ({@code application/problem+json}) whose {@code detail} is the exception's message.
 *
 * <p>Ordered last, after Spring's own resolvers: an application that maps the exception itself, with an
 * {@code @ExceptionHandler} in a controller or a {@code @ControllerAdvice}, or with its own resolver, keeps its
 * answer.
 */
public class PoolOverloadExceptionResolver implements HandlerExceptionResolver, Ordered {

    /** The {@code Retry-After} value sent, in seconds. */
    public static final int RETRY_AFTER_SECONDS = 1;

    /** Created by the auto-configuration. */
    public PoolOverloadExceptionResolver() {
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception ex) {
        if (!(ex instanceof PoolOverloadException) || response.isCommitted()) {
            return null;
        }
        try {
            response.setStatus(429);
            response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,"
                    + "\"detail\":" + quote(String.valueOf(ex.getMessage())) + ",\"instance\":"
                    + quote(request.getRequestURI()) + "}");
            return new ModelAndView();
        }
        catch (IOException writeFailed) {
            return null;
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** A JSON string literal. */
    static String quote(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
