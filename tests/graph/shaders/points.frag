#version 450
layout(location = 0) flat in uint v_payload;
layout(location = 0) out uint color;
void main()
{
    color = v_payload + 1u;
}
