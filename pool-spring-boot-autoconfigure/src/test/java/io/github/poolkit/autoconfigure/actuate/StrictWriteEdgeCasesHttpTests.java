package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.poolkit.WeightedSemaphore;
import tools.jackson.databind.JsonNode;

/**
 * The edges of a strict write to {@code POST /actuator/pools/{name}}, on each web stack (the subclasses): a field that
 * names no setting of the target, whatever it is (a figure such as {@code running}, the bean's {@code name}, a field
 * of another kind of target, a field given as {@code null}), is refused with 400 naming it, and nothing changes; so
 * is a {@code beanName} in the body or the query, which would otherwise replace the bean the path names; a
 * malformed body, or a value that is no number, text or boolean, is refused with 400 and changes nothing either.
 * A read of one entry follows the path alone in the same way, and the discovery page links the entry once. The name
 * is all of the path after {@code pools/}, so a bean whose name holds a slash is reached too, and an alias stands for
 * its bean ({@link OddNames}).
 */
@Timeout(60)
abstract class StrictWriteEdgeCasesHttpTests {

    private EndpointClient client;

    @BeforeEach
    void connect(@LocalServerPort int port) {
        client = new EndpointClient(port);
    }

    @Test
    void aFieldFixedAtCreationIsRefused() throws Exception {
        assertRefused("/actuator/pools/reports", "{\"capacity\": 3, \"queueCapacity\": 5}", "queueCapacity");
        assertUnchanged();
    }

    @Test
    void aFigureThatIsReadOnlyIsRefused() throws Exception {
        assertRefused("/actuator/pools/reports", "{\"capacity\": 3, \"running\": 1}", "running");
        assertRefused("/actuator/pools/gpu-memory", "{\"size\": 20, \"used\": 0}", "used");
        assertRefused("/actuator/pools/delayScheduler", "{\"pending\": 0}", "pending");
        assertUnchanged();
    }

    @Test
    void theBeansNameInTheBodyIsRefusedAndNoOtherBeanChanges() throws Exception {
        assertRefused("/actuator/pools/reports", "{\"name\": \"workerPool\", \"capacity\": 3}", "name");
        assertRefused("/actuator/pools/reports", "{\"name\": \"reports\", \"capacity\": 3}", "name");
        assertRefused("/actuator/pools/gpu-memory", "{\"name\": \"gpu-memory\", \"size\": 20}", "name");
        assertUnchanged();
    }

    @Test
    void aBeanNameInTheBodyOrTheQueryIsRefusedAndNoOtherBeanChanges() throws Exception {
        // Actuator lays the body's fields and the query's parameters over the path's variables: the path must decide
        assertRefused("/actuator/pools/reports", "{\"beanName\": \"workerPool\", \"capacity\": 3}", "beanName");
        assertRefused("/actuator/pools/reports?beanName=workerPool", "{\"capacity\": 3}", "beanName");
        assertRefused("/actuator/pools/gpu-memory", "{\"beanName\": \"reports\", \"capacity\": 3}", "beanName");
        assertRefused("/actuator/pools/reports?beanName=reports", "{\"capacity\": 3}", "beanName");
        assertRefused("/actuator/pools/reports", "{\"beanName\": \"reports\", \"capacity\": 3}", "beanName");
        HttpResponse<String> response = client.post("/actuator/pools/reports?beanName=workerPool",
                "{\"capacity\": 3}");
        assertThat(EndpointClient.json(response).get("detail").asString()).contains("leave it out", "path");
        assertUnchanged();
    }

    @Test
    void aPathOfMoreOrLessThanOneSegmentNamesNoBean() throws Exception {
        for (String path : new String[] { "/actuator/pools/reports/workerPool", "/actuator/pools" }) {
            HttpResponse<String> response = client.post(path, "{\"capacity\": 3}");
            assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(404);
        }
        assertUnchanged();
    }

    @Test
    void aFieldOfAnotherKindOfTargetIsRefused() throws Exception {
        assertRefused("/actuator/pools/reports", "{\"capacity\": 3, \"size\": 5}", "size");
        assertRefused("/actuator/pools/reports", "{\"capacity\": 3, \"coreSize\": 2}", "coreSize");
        assertRefused("/actuator/pools/gpu-memory", "{\"size\": 20, \"capacity\": 3}", "capacity");
        assertRefused("/actuator/pools/gpu-memory", "{\"size\": 20, \"maxWait\": \"1s\"}", "maxWait");
        assertRefused("/actuator/pools/delayScheduler", "{\"capacity\": 3}", "capacity");
        assertUnchanged();
    }

    @Test
    void aRefusedFieldGivenAsNullIsStillRefused() throws Exception {
        assertRefused("/actuator/pools/reports", "{\"capacity\": 3, \"queueCapacity\": null}", "queueCapacity");
        assertUnchanged();
    }

    /** A field the target takes, given as {@code null}, is no value: refused, not read as "leave it as it is". */
    @Test
    void aFieldTheTargetTakesGivenAsNullIsRefused() throws Exception {
        assertRefused("/actuator/pools/reports", "{\"capacity\": 3, \"maxWait\": null}", "maxWait");
        assertRefused("/actuator/pools/reports", "{\"capacity\": null}", "capacity");
        assertRefused("/actuator/pools/gpu-memory", "{\"size\": null}", "size");
        assertUnchanged();
    }

    @Test
    void aMalformedBodyChangesNothing() throws Exception {
        HttpResponse<String> response = client.post("/actuator/pools/reports", "{\"capacity\": 3,");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertUnchanged();
    }

    @Test
    void aValueThatIsNoScalarIsRefusedAndChangesNothing() throws Exception {
        // Actuator reads the body as text values before poolkit sees it, so these 400s do not name the field
        for (String body : new String[] { "{\"capacity\": 3, \"adaptive\": {\"min\": 2}}",
                "{\"capacity\": 3, \"recentOverdue\": []}", "{\"capacity\": [3]}", "[3]" }) {
            HttpResponse<String> response = client.post("/actuator/pools/reports", body);
            assertThat(response.statusCode()).as(body + " -> " + response.body()).isEqualTo(400);
        }
        assertUnchanged();
    }

    @Test
    void theFieldsTheTargetTakesStillApply() throws Exception {
        HttpResponse<String> ok = client.post("/actuator/pools/reports", "{\"capacity\": 5}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(client.getJson("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(5);
        assertThat(client.post("/actuator/pools/reports", "{\"capacity\": 4}").statusCode()).isEqualTo(200);
        assertUnchanged();
    }

    @Test
    void aReadAnswersTheEntryThePathNamesWhateverTheQuery() throws Exception {
        // Actuator lays the query's parameters over the path's variables: the path must decide, for reads too
        assertThat(client.getJson("/actuator/pools/reports?name=workerPool").get("capacity").asInt()).isEqualTo(4);
        assertThat(client.getJson("/actuator/pools/gpu-memory?name=reports").get("size").asLong()).isEqualTo(16);
        assertThat(client.getJson("/actuator/pools/workerPool?name=reports&name=gpu-memory").get("capacity").asInt())
                .isEqualTo(6);
        assertThat(client.getJson("/actuator/pools/reports?verbose=true").get("capacity").asInt()).isEqualTo(4);
        HttpResponse<String> unknown = client.get("/actuator/pools/nothing?name=reports");
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
        assertUnchanged();
    }

    @Test
    void aBeanNameInTheQueryOfAReadIsRefusedAsInAWrite() throws Exception {
        for (String path : new String[] { "/actuator/pools/reports?beanName=workerPool",
                "/actuator/pools/reports?beanName=reports", "/actuator/pools/nothing?beanName=reports" }) {
            HttpResponse<String> response = client.get(path);
            assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(400);
            JsonNode problem = EndpointClient.json(response);
            assertThat(problem.get("field").asString()).as(path).isEqualTo("beanName");
            assertThat(problem.get("detail").asString()).as(path).contains("leave it out", "path");
        }
    }

    @Test
    void aReadOfAPathOfMoreThanOneSegmentNamesNoBean() throws Exception {
        for (String path : new String[] { "/actuator/pools/reports/workerPool", "/actuator/pools/nothing" }) {
            HttpResponse<String> response = client.get(path);
            assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(404);
        }
    }

    /** A bean whose name holds a slash, listed like any other, is read and written at its name's path, and checked. */
    @Test
    void aNameWithASlashIsAllOfThePathAfterPools() throws Exception {
        assertThat(client.getJson("/actuator/pools").get("semaphores").has(OddNames.SLASHED)).isTrue();
        assertThat(client.getJson("/actuator/pools/eu/gpu").get("size").asLong()).isEqualTo(8);
        assertRefused("/actuator/pools/eu/gpu", "{\"size\": 9, \"capasity\": 1}", "capasity");
        HttpResponse<String> ok = client.post("/actuator/pools/eu/gpu", "{\"size\": 9}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(EndpointClient.json(ok).get("size").asLong()).isEqualTo(9);
        assertThat(client.post("/actuator/pools/eu/gpu", "{\"size\": 8}").statusCode()).isEqualTo(200);
        assertUnchanged();
    }

    /**
     * An alias stands for its bean, as {@code getBean} and {@code @Async} take it: read, written and checked as the
     * bean itself (the strict check included), and listed once, under the bean's own name.
     */
    @Test
    void anAliasStandsForItsBean() throws Exception {
        assertThat(client.getJson("/actuator/pools/" + OddNames.ALIAS).get("size").asLong()).isEqualTo(8);
        assertRefused("/actuator/pools/" + OddNames.ALIAS, "{\"size\": 9, \"capasity\": 1}", "capasity");
        HttpResponse<String> ok = client.post("/actuator/pools/" + OddNames.ALIAS, "{\"size\": 9}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(client.getJson("/actuator/pools/eu/gpu").get("size").asLong()).isEqualTo(9);
        assertThat(client.post("/actuator/pools/" + OddNames.ALIAS, "{\"size\": 8}").statusCode()).isEqualTo(200);
        assertThat(client.getJson("/actuator/pools").get("semaphores").has(OddNames.ALIAS)).isFalse();
        assertUnchanged();
    }

    @Test
    void theDiscoveryPageLinksTheEndpointAndOneTemplatedLinkForAnEntry() throws Exception {
        JsonNode links = client.getJson("/actuator").get("_links");
        List<String> names = links.propertyNames().stream().filter(name -> name.startsWith("pools")).toList();
        assertThat(names).as(links.toString()).hasSize(2).contains("pools");
        assertThat(links.get("pools").get("href").asString()).endsWith("/actuator/pools");
        assertThat(links.get("pools").get("templated").asBoolean()).isFalse();
        JsonNode entry = links.get(names.get(names.get(0).equals("pools") ? 1 : 0));
        assertThat(entry.get("href").asString()).as(links.toString()).contains("/actuator/pools/{");
        assertThat(entry.get("templated").asBoolean()).isTrue();
    }

    private void assertRefused(String path, String body, String field) throws Exception {
        HttpResponse<String> response = client.post(path, body);
        assertThat(response.statusCode()).as(body + " -> " + response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = EndpointClient.json(response);
        assertThat(problem.get("field").asString()).as(body).isEqualTo(field);
        assertThat(problem.get("detail").asString()).as(body).contains(field);
    }

    private void assertUnchanged() throws Exception {
        assertThat(client.getJson("/actuator/pools/workerPool").get("capacity").asInt()).isEqualTo(6);
        assertThat(client.getJson("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(4);
        assertThat(client.getJson("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(16);
        assertThat(client.getJson("/actuator/pools/delayScheduler").get("capacity").asInt()).isEqualTo(2);
        assertThat(client.getJson("/actuator/pools").get("semaphores").get(OddNames.SLASHED).get("size").asLong())
                .isEqualTo(8);
    }

    /** A semaphore of the application's own whose name holds a slash, and an alias; each stack's application has it. */
    @Configuration(proxyBeanMethods = false)
    static class OddNames {

        /** The semaphore's bean name. */
        static final String SLASHED = "eu/gpu";

        /** Another name of the same bean. */
        static final String ALIAS = "euGpu";

        @Bean(name = { SLASHED, ALIAS })
        WeightedSemaphore euGpu() {
            return new WeightedSemaphore(8);
        }
    }
}
