package io.github.poolkit.redis;

/**
 * Listens on this instance's grant channel ({@code <prefix>grants:<owner>}), where the script tells of each grant to
 * a request that waited in line: {@code "id token"}, or {@code "id -1"} for a request that can never fit any more (the
 * size shrank below it).
 *
 * <p>Invariant: a message settles only a request still in the table; one for a request that settled already is
 * dropped (its cancel script returns the grant if needed). A grant told twice (message and heartbeat) is recorded
 * once ({@link Requests#granted}). A message lost while the channel was not subscribed (a reconnect) is found by the
 * check made when Redis confirms the subscription again; any other lost message costs at most one renewal period: the
 * heartbeat finds the grant.
 */
final class GrantMessages {

    private final Requests requests;

    GrantMessages(Requests requests) {
        this.requests = requests;
    }

    /**
     * Subscribes this instance's grant channel on the pub/sub connection. Each time Redis confirms the subscription
     * (Lettuce subscribes again after a reconnect), the requests waiting in line are checked at once: a grant whose
     * message came while the channel was not subscribed is found then ({@link WaitingChecks}).
     */
    void listen(Connections connections, Instance instance) {
        connections.listen(instance.keys().grantChannelPrefix() + instance.owner(), this::onMessage,
                requests.checks()::subscribed, instance.keys(), instance.commandTimeout());
    }

    private void onMessage(String message) {
        int space = message.indexOf(' ');
        Request request = requests.get(message.substring(0, space));
        if (request == null) {
            return; // settled already; a cancel script returns the grant if needed
        }
        long token = Long.parseLong(message.substring(space + 1));
        if (token < 0) {
            requests.settleByRedis(request, request.orFalse ? null : requests.tooLarge(request.weight));
        } else {
            requests.granted(request, token);
        }
    }
}
