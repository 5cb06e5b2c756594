-- One cluster-wide weighted semaphore: every state change is one run of this script (atomic in Redis).
--
-- KEYS (one hash slot: all carry the same {name} tag)
--   1 meta       hash   size, used, seq (the last queue ticket)
--   2 leaseExp   zset   lease id -> expiry (server ms)
--   3 leases     hash   lease id -> "weight token owner"
--   4 queue      zset   waiter id -> ticket (FIFO order)
--   5 waiters    hash   waiter id -> "weight leaseMs owner"
--   6 waiterExp  zset   waiter id -> expiry (server ms), pushed on by the owner's heartbeat
--   7 fence      string INCR'd once per grant: the fencing token
-- ARGV
--   1 op, 2 channel prefix (+ owner = that instance's grant channel), 3 size to set when none is stored,
--   4 lease ms of the caller, 5 waiter ttl ms of the caller, 6.. the op's arguments
--
-- Invariants, true between any two runs:
--   used = the sum of the weights in 'leases'; 'leases' and 'leaseExp' have the same ids, 'waiters', 'queue' and
--   'waiterExp' the same ids; an id is never both a waiter and a lease.
--   After the first three steps of every run (reap, grant) the head of the queue does not fit (used + weight > size)
--   or the queue is empty: nobody waits while their permits are free.
-- Time is the server's (TIME), never a client's.

local meta, leaseExp, leases, queue, waiters, waiterExp, fence =
    KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local op, channelPrefix = ARGV[1], ARGV[2]
local leaseMs, waiterTtlMs = tonumber(ARGV[4]), tonumber(ARGV[5])

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- The first instance to touch the semaphore (or the first after its keys were lost) sets its size.
redis.call('HSETNX', meta, 'size', ARGV[3])
local size = tonumber(redis.call('HGET', meta, 'size'))
local used = tonumber(redis.call('HGET', meta, 'used') or '0')

local function leaseWeight(value)
    return tonumber(string.match(value, '^(%d+)'))
end

local function dropLease(id)
    local value = redis.call('HGET', leases, id)
    if value then
        used = used - leaseWeight(value)
        redis.call('HDEL', leases, id)
    end
    redis.call('ZREM', leaseExp, id)
end

local function newLease(id, weight, ms, owner)
    local token = redis.call('INCR', fence)
    redis.call('HSET', leases, id, weight .. ' ' .. token .. ' ' .. owner)
    redis.call('ZADD', leaseExp, now + ms, id)
    used = used + weight
    return token
end

local function dropWaiter(id)
    redis.call('ZREM', queue, id)
    redis.call('HDEL', waiters, id)
    redis.call('ZREM', waiterExp, id)
end

-- Grants the head of the line while it fits, and tells each owner on its channel: "id token", or "id -1" for a
-- request that can never fit any more (the size shrank below it).
local function grantWaiters()
    while true do
        local head = redis.call('ZRANGE', queue, 0, 0)[1]
        if not head then
            return
        end
        local weight, ms, owner = string.match(redis.call('HGET', waiters, head), '^(%d+) (%d+) (.+)$')
        weight = tonumber(weight)
        if weight > size then
            dropWaiter(head)
            redis.call('PUBLISH', channelPrefix .. owner, head .. ' -1')
        elseif used + weight <= size then
            dropWaiter(head)
            local token = newLease(head, weight, tonumber(ms), owner)
            redis.call('PUBLISH', channelPrefix .. owner, head .. ' ' .. token)
        else
            return
        end
    end
end

-- 1. reap: leases and waiters whose owner stopped renewing them
for _, id in ipairs(redis.call('ZRANGEBYSCORE', leaseExp, '-inf', now)) do
    dropLease(id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', waiterExp, '-inf', now)) do
    dropWaiter(id)
end
-- 2. grant what reaping freed
grantWaiters()

local result
if op == 'acquire' then
    -- ARGV 6 id, 7 owner, 8 weight, 9 'wait' or 'try'
    -- -> {1, token} granted, {2, ticket} queued, {0} refused (try), {-2} larger than size
    local id, owner, weight = ARGV[6], ARGV[7], tonumber(ARGV[8])
    if weight > size then
        result = { -2 }
    elseif redis.call('ZCARD', queue) == 0 and used + weight <= size then
        result = { 1, newLease(id, weight, leaseMs, owner) }
    elseif ARGV[9] == 'try' then
        result = { 0 }
    else
        local ticket = redis.call('HINCRBY', meta, 'seq', 1)
        redis.call('ZADD', queue, ticket, id)
        redis.call('HSET', waiters, id, weight .. ' ' .. leaseMs .. ' ' .. owner)
        redis.call('ZADD', waiterExp, now + waiterTtlMs, id)
        result = { 2, ticket }
    end
elseif op == 'release' then
    -- ARGV 6 id -> {1} released, {0} no such lease (expired and reaped, or never granted)
    local id = ARGV[6]
    if redis.call('HEXISTS', leases, id) == 1 then
        dropLease(id)
        grantWaiters()
        result = { 1 }
    else
        result = { 0 }
    end
elseif op == 'releaseFrom' then
    -- ARGV 6.. pairs (id, amount): take 'amount' off each lease, all or nothing
    -- -> {1} done, {0, id} that lease is gone (nothing changed)
    for i = 6, #ARGV, 2 do
        local value = redis.call('HGET', leases, ARGV[i])
        if not value or leaseWeight(value) < tonumber(ARGV[i + 1]) then
            result = { 0, ARGV[i] }
            break
        end
    end
    if not result then
        for i = 6, #ARGV, 2 do
            local id, amount = ARGV[i], tonumber(ARGV[i + 1])
            local value = redis.call('HGET', leases, id)
            local weight, rest = string.match(value, '^(%d+)(.*)$')
            if tonumber(weight) == amount then
                dropLease(id)
            else
                redis.call('HSET', leases, id, (tonumber(weight) - amount) .. rest)
                used = used - amount
            end
        end
        grantWaiters()
        result = { 1 }
    end
elseif op == 'cancel' then
    -- ARGV 6 id: withdraw a request; a grant that won the race is given back
    -- -> {0} withdrawn from the line, {1} it had been granted and is now released, {-1} unknown (expired)
    local id = ARGV[6]
    if redis.call('HEXISTS', waiters, id) == 1 then
        dropWaiter(id)
        grantWaiters()
        result = { 0 }
    elseif redis.call('HEXISTS', leases, id) == 1 then
        dropLease(id)
        grantWaiters()
        result = { 1 }
    else
        result = { -1 }
    end
elseif op == 'heartbeat' then
    -- ARGV 6 number of lease ids L, then L lease ids, then waiter ids
    -- -> {lost lease ids, {granted waiter id, token}..., gone waiter ids}
    local leaseCount = tonumber(ARGV[6])
    local lost, granted, gone = {}, {}, {}
    for i = 7, 6 + leaseCount do
        if redis.call('ZSCORE', leaseExp, ARGV[i]) then
            redis.call('ZADD', leaseExp, now + leaseMs, ARGV[i])
        else
            table.insert(lost, ARGV[i])
        end
    end
    for i = 7 + leaseCount, #ARGV do
        local id = ARGV[i]
        if redis.call('HEXISTS', waiters, id) == 1 then
            redis.call('ZADD', waiterExp, now + waiterTtlMs, id)
        else
            local value = redis.call('HGET', leases, id)
            if value then
                table.insert(granted, id)
                table.insert(granted, string.match(value, '^%d+ (%d+)'))
            else
                table.insert(gone, id)
            end
        end
    end
    result = { lost, granted, gone }
elseif op == 'resize' then
    -- ARGV 6 new size -> {1}
    size = tonumber(ARGV[6])
    redis.call('HSET', meta, 'size', size)
    grantWaiters()
    result = { 1 }
elseif op == 'state' then
    -- -> {size, used, waiting}
    result = { size, used, redis.call('ZCARD', queue) }
else
    return redis.error_reply('unknown op ' .. tostring(op))
end

redis.call('HSET', meta, 'used', used)
return result
