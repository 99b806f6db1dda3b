#version 330 core
// Transforms a mesh vertex to clip space and passes world-space attributes to mesh.frag.
in vec3 aPosition;
in vec3 aNormal;
in vec2 aTexcoord;
in vec4 aColor;
in vec4 aTangent;   // xyz tangent, w = handedness of the bitangent

uniform mat4 uModel;
uniform mat3 uNormalMatrix;   // inverse transpose of uModel's upper 3x3
uniform mat4 uViewProjection;
uniform vec4 uTexcoordTransform;   // xy scale, zw offset (tiling; the infinite floor in metres)

out vec3 vWorldPosition;
out vec3 vNormal;
out vec2 vTexcoord;
out vec4 vColor;
out vec4 vTangent;

void main() {
    vec4 world = uModel * vec4(aPosition, 1.0);
    vWorldPosition = world.xyz;
    vNormal = uNormalMatrix * aNormal;
    vTexcoord = aTexcoord * uTexcoordTransform.xy + uTexcoordTransform.zw;
    vColor = aColor;
    vTangent = vec4(mat3(uModel) * aTangent.xyz, aTangent.w);
    gl_Position = uViewProjection * world;
}
