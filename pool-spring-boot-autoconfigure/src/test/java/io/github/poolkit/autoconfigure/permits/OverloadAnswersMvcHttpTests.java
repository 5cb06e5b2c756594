package io.github.poolkit.autoconfigure.permits;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;

/** Every overload is a 429, in Spring MVC on Tomcat (reactive return values included). */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = OverloadAnswersHttpTests.PROPERTIES)
class OverloadAnswersMvcHttpTests extends OverloadAnswersHttpTests {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ReactiveJobs.class, TypeGuardedJobs.class })
    static class WebApplication {
    }
}
