package io.github.poolkit.sample.web;

/**
 * The request named something that does not exist (a pool, a reminder); {@link ApiExceptionHandler} answers it
 * with {@code 404 Not Found}.
 */
public class NotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was not found and where to look for the valid names
     */
    public NotFoundException(String message) {
        super(message);
    }
}
