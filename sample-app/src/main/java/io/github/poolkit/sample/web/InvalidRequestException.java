package io.github.poolkit.sample.web;

/**
 * The request asked for something the sample cannot do, such as a negative job count or an image larger than the
 * render semaphore; {@link ApiExceptionHandler} answers it with {@code 400 Bad Request}. The message names the
 * parameter, the value and what would be accepted.
 */
public class InvalidRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the request and how to fix it
     */
    public InvalidRequestException(String message) {
        super(message);
    }

    /**
     * Checks that a numeric request parameter lies in {@code [min, max]}.
     *
     * @param name  the parameter name, as the client spelled it
     * @param value the value received
     * @param min   the smallest accepted value
     * @param max   the largest accepted value
     * @return {@code value}, for use in expressions
     * @throws InvalidRequestException when {@code value} is out of range
     */
    public static long requireInRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidRequestException(
                    "%s must be between %d and %d, but was %d".formatted(name, min, max, value));
        }
        return value;
    }
}
