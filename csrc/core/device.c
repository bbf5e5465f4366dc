/* device.c - parsing and naming devices (see device.h). */
#include "device.h"

#include <stdio.h>
#include <string.h>

static const char *const type_names[DT_NUM_DEVICE_TYPES] = {"cpu", "cuda"};

const char *dt_device_type_name(dt_device_type t)
{
    return (t >= 0 && t < DT_NUM_DEVICE_TYPES) ? type_names[t] : "unknown";
}

#define ACCEPTED_FORMS "'cpu', 'cuda' or 'cuda:N' with N a non-negative integer"

static dt_status parse_error(const char *s, dt_error *err)
{
    return dt_error_set(err, DT_ERR_RUNTIME,
                        "Invalid device string: '%.200s'; expected %s", s, ACCEPTED_FORMS);
}

dt_status dt_device_parse(const char *s, dt_device *out, dt_error *err)
{
    const char *colon = strchr(s, ':');
    size_t type_len = colon ? (size_t)(colon - s) : strlen(s);
    int type = -1;
    for (int t = 0; t < DT_NUM_DEVICE_TYPES; t++)
        if (strlen(type_names[t]) == type_len && strncmp(s, type_names[t], type_len) == 0)
            type = t;
    if (type < 0)
        return parse_error(s, err);
    if (colon == NULL) {
        out->type = (int8_t)type;
        out->index = type == DT_DEVICE_CPU ? DT_INDEX_NONE : DT_INDEX_CURRENT;
        return DT_OK;
    }
    if (type == DT_DEVICE_CPU)
        return parse_error(s, err); /* 'cpu:0' is not a device (there is one cpu) */
    const char *digits = colon + 1;
    long value = 0;
    if (*digits == '\0')
        return parse_error(s, err);
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9')
            return parse_error(s, err);
        if (p != digits && digits[0] == '0')
            return parse_error(s, err); /* no leading zeros: 'cuda:01' */
        value = value * 10 + (*p - '0');
        if (value > DT_MAX_DEVICE_INDEX)
            return dt_error_set(err, DT_ERR_RUNTIME,
                                "Invalid device string: '%.200s': index exceeds %d",
                                s, DT_MAX_DEVICE_INDEX);
    }
    out->type = (int8_t)type;
    out->index = (int16_t)value;
    return DT_OK;
}

void dt_device_format(dt_device d, char *buf, size_t size)
{
    if (d.index < 0)
        snprintf(buf, size, "%s", dt_device_type_name((dt_device_type)d.type));
    else
        snprintf(buf, size, "%s:%d", dt_device_type_name((dt_device_type)d.type), (int)d.index);
}
