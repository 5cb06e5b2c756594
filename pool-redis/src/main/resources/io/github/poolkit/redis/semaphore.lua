-- One cluster-wide weighted semaphore: every state change is one run of this script (atomic in Redis).
--
-- KEYS (one hash slot: all carry the same {name} tag)
--   1 meta       hash   size, used, seq (the last queue ticket), fence (the last fencing token), waiting (the
--                       length of the queue), reapAt (below)
--   2 leaseExp   zset   lease id -> expiry (server ms)
--   3 leases     hash   lease id -> "weight token owner"
--   4 queue      zset   waiter id -> ticket (FIFO order)
--   5 waiters    hash   waiter id -> "weight leaseMs owner"
--   6 waiterExp  zset   waiter id -> expiry (server ms), pushed on by the owner's heartbeat
-- ARGV
--   1 op, 2 size to set when none is stored, 3 lease ms of the caller (also how long its place in line lasts
--   without renewal), 4.. the op's arguments
-- Ids are "owner:counter"; an owner hears of its grants on the channel <prefix>grants:<owner>.
--
-- Invariants, true between any two runs:
--   used = the sum of the weights in 'leases'; 'leases' and 'leaseExp' have the same ids, 'waiters', 'queue' and
--   'waiterExp' the same ids; an id is never both a waiter and a lease.
--   waiting = the number of ids in 'queue' (a run that reaps also recounts it, so a drift cannot outlive a lease).
--   Nobody waits while their permits are free: the head of the queue does not fit (used + weight > size), or the
--   queue is empty. Every run that frees permits or changes the size grants the line before it ends.
--   reapAt is at most the earliest expiry in 'leaseExp' and 'waiterExp' ('none' when both are empty; missing when
--   unknown). So while now < reapAt nothing has expired, and a run skips the reaping (two range reads) altogether:
--   the common run reads 'meta' once and writes it once.
-- Time is the server's (TIME), never a client's.
--
-- Cost: each redis.call costs about as much as a small command, so a run makes as few as it can: the uncontended
-- acquire makes five (TIME, HMGET meta, HSET leases, ZADD leaseExp, HSET meta), a release with nobody waiting six
-- (TIME, HMGET meta, HGET, HDEL leases, ZREM leaseExp, HSET meta). Arguments are kept short for the same reason.

local meta, leaseExp, leases, queue, waiters, waiterExp = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local op, leaseMs = ARGV[1], tonumber(ARGV[3])
local waiterTtlMs = leaseMs
local channelPrefix = string.sub(meta, 1, -5) .. 'grants:' -- meta is <prefix>meta

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local stored = redis.call('HMGET', meta, 'size', 'used', 'seq', 'fence', 'reapAt', 'waiting')
-- The first instance to touch the semaphore (or the first after its keys were lost) sets its size.
local sizeStored = stored[1] ~= false
local size = tonumber(stored[1] or ARGV[2])
local used = tonumber(stored[2] or '0')
local seq = tonumber(stored[3] or '0')
local fence = tonumber(stored[4] or '0')
local waiting = tonumber(stored[6] or '0')
local reapAt = stored[5] -- false (unknown), 'none', or a number as a string
if reapAt and reapAt ~= 'none' then
    reapAt = tonumber(reapAt)
end
-- meta's fields this run changed, written back in one HSET at the end
local changed = {}
if not sizeStored then
    changed.size = size
end

local function leaseWeight(value)
    return tonumber(string.match(value, '^(%d+)'))
end

-- Every expiry is written here, so that reapAt stays at most the earliest one.
local function expireAt(set, id, at)
    redis.call('ZADD', set, at, id)
    if reapAt == false or reapAt == 'none' or at < reapAt then
        reapAt = at
        changed.reapAt = at
    end
end

-- Drops a lease and gives its weight back; 'value' is its entry in 'leases' when the caller has read it already.
local function dropLease(id, value)
    value = value or redis.call('HGET', leases, id)
    if value then
        used = used - leaseWeight(value)
        redis.call('HDEL', leases, id)
    end
    redis.call('ZREM', leaseExp, id)
end

local function newLease(id, weight, ms, owner)
    fence = fence + 1
    changed.fence = fence
    redis.call('HSET', leases, id, weight .. ' ' .. fence .. ' ' .. owner)
    expireAt(leaseExp, id, now + ms)
    used = used + weight
    return fence
end

local function dropWaiter(id)
    if redis.call('ZREM', queue, id) == 1 then
        waiting = waiting - 1
        changed.waiting = waiting
    end
    redis.call('HDEL', waiters, id)
    redis.call('ZREM', waiterExp, id)
end

-- Grants the head of the line while it fits, and tells each owner on its channel: "id token", or "id -1" for a
-- request that can never fit any more (the size shrank below it).
local function grantWaiters()
    while waiting > 0 do
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

-- @return the earliest score in a sorted set, or nil when it is empty
local function earliest(set)
    local first = redis.call('ZRANGE', set, 0, 0, 'WITHSCORES')
    return first[2] and tonumber(first[2])
end

-- 1. reap leases and waiters whose owner stopped renewing them, when one may have expired; recount the line; learn
--    the next expiry; grant the line (permits freed here, a size stored anew or a count that was wrong may let it
--    move). While anybody holds or waits, this runs at least once per lease time, as their renewals pass reapAt.
if reapAt == false or (reapAt ~= 'none' and now >= reapAt) then
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', leaseExp, '-inf', now)) do
        dropLease(id)
    end
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', waiterExp, '-inf', now)) do
        dropWaiter(id)
    end
    waiting = redis.call('ZCARD', queue)
    changed.waiting = waiting
    local nextLease, nextWaiter = earliest(leaseExp), earliest(waiterExp)
    reapAt = math.min(nextLease or math.huge, nextWaiter or math.huge)
    if reapAt == math.huge then
        reapAt = 'none'
    end
    changed.reapAt = reapAt
    grantWaiters()
elseif not sizeStored then
    grantWaiters()
end

local result
if op == 'acquire' then
    -- ARGV 4 id, 5 weight, 6 'wait' or 'try'
    -- -> {1, token} granted, {2, ticket} queued, {0} refused (try), {-2} larger than size
    local id, weight = ARGV[4], tonumber(ARGV[5])
    local owner = string.match(id, '^(.*):')
    if weight > size then
        result = { -2 }
    elseif used + weight <= size and waiting == 0 then
        result = { 1, newLease(id, weight, leaseMs, owner) }
    elseif ARGV[6] == 'try' then
        result = { 0 }
    else
        seq = seq + 1
        changed.seq = seq
        redis.call('ZADD', queue, seq, id)
        waiting = waiting + 1
        changed.waiting = waiting
        redis.call('HSET', waiters, id, weight .. ' ' .. leaseMs .. ' ' .. owner)
        expireAt(waiterExp, id, now + waiterTtlMs)
        result = { 2, seq }
    end
elseif op == 'release' then
    -- ARGV 4 id -> {1} released, {0} no such lease (expired and reaped, or never granted)
    local id = ARGV[4]
    local value = redis.call('HGET', leases, id)
    if value then
        dropLease(id, value)
        grantWaiters()
        result = { 1 }
    else
        result = { 0 }
    end
elseif op == 'releaseFrom' then
    -- ARGV 4.. pairs (id, amount): take 'amount' off each lease, all or nothing
    -- -> {1} done, {0, id} that lease is gone (nothing changed)
    for i = 4, #ARGV, 2 do
        local value = redis.call('HGET', leases, ARGV[i])
        if not value or leaseWeight(value) < tonumber(ARGV[i + 1]) then
            result = { 0, ARGV[i] }
            break
        end
    end
    if not result then
        for i = 4, #ARGV, 2 do
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
    -- ARGV 4 id: withdraw a request; a grant that won the race is given back
    -- -> {0} withdrawn from the line, {1} it had been granted and is now released, {-1} unknown (expired)
    local id = ARGV[4]
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
    -- ARGV 4 number of lease ids L, then L lease ids, then waiter ids
    -- -> {lost lease ids, {granted waiter id, token}..., gone waiter ids}
    local leaseCount = tonumber(ARGV[4])
    local lost, granted, gone = {}, {}, {}
    for i = 5, 4 + leaseCount do
        if redis.call('ZSCORE', leaseExp, ARGV[i]) then
            expireAt(leaseExp, ARGV[i], now + leaseMs)
        else
            table.insert(lost, ARGV[i])
        end
    end
    for i = 5 + leaseCount, #ARGV do
        local id = ARGV[i]
        if redis.call('HEXISTS', waiters, id) == 1 then
            expireAt(waiterExp, id, now + waiterTtlMs)
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
    -- ARGV 4 new size -> {1}
    size = tonumber(ARGV[4])
    changed.size = size
    grantWaiters()
    result = { 1 }
elseif op == 'state' then
    -- -> {size, used, waiting}
    result = { size, used, redis.call('ZCARD', queue) }
else
    return redis.error_reply('unknown op ' .. tostring(op))
end

if used ~= tonumber(stored[2] or '0') or not stored[2] then
    changed.used = used
end
local fields = {}
for field, value in pairs(changed) do
    table.insert(fields, field)
    table.insert(fields, value)
end
if #fields > 0 then
    redis.call('HSET', meta, unpack(fields))
end
return result
